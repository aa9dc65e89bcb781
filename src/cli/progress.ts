// What a person at a terminal sees of a run: one progress line at the bottom that log lines never
// overwrite. On a TTY the JSON log goes to a file (--log-file, else logs/recon.log beside the store) and
// warnings and errors are also shown as short readable lines above the bar. Not a TTY (cron, CI, a pipe):
// pino JSON on stderr or --log-file as before, and no bar.
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { createLogger } from '../log.js';
import type { Config } from '../config.js';

export interface SyncProgress {
  /** total_entries of the list's first envelope: known before the first disbursement is read. */
  announced: number;
  listed: number;
  /** Listed but unchanged since the last run: nothing to read. */
  skipped: number;
  done: number;
  requests: number;
}

export interface Progress {
  update(p: SyncProgress): void;
  /** Prints a line above the bar (the bar is redrawn under it). */
  above(line: string): void;
  done(): void;
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const LEVELS: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };

function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** The progress line of a sync: disbursements handled of those announced, the request rate against the budget, ETA. */
export function progressLine(p: SyncProgress, o: { elapsedMs: number; lastMinuteRequests: number; budgetPerMinute: number; width?: number }): string {
  const total = Math.max(p.announced, p.listed, 1);
  const handled = p.skipped + p.done;
  const width = o.width ?? 20;
  const filled = Math.min(width, Math.round((handled / total) * width));
  const perHandled = handled > 0 ? o.elapsedMs / handled : 0;
  const eta = perHandled > 0 ? clock((total - handled) * perHandled) : '…';
  const minutes = Math.min(1, o.elapsedMs / 60_000);
  const rate = minutes > 0 ? Math.round(o.lastMinuteRequests / Math.max(minutes, 1 / 60)) : 0;
  return `disbursements ${'█'.repeat(filled)}${'░'.repeat(width - filled)} ${handled}/${total}`
    + ` (${p.done} read, ${p.skipped} unchanged)  ${rate}/min of ${o.budgetPerMinute} budget  ${clock(o.elapsedMs)} elapsed, ETA ${eta}`;
}

function progressBar(stream: NodeJS.WriteStream, budgetPerMinute: number, now: () => number = Date.now): Progress {
  const start = now();
  const recent: Array<[number, number]> = []; // [time, requests] samples of the last minute
  let last: SyncProgress | null = null;
  let drawn = '';
  let lastDraw = 0;
  const draw = () => {
    if (!last) return;
    const t = now();
    while (recent.length > 1 && recent[0]![0] < t - 60_000) recent.shift();
    const lastMinuteRequests = last.requests - (recent[0]?.[1] ?? 0);
    drawn = progressLine(last, { elapsedMs: t - start, lastMinuteRequests, budgetPerMinute, width: 20 }).slice(0, (stream.columns ?? 120) - 1);
    stream.write(`\r\x1b[2K${drawn}`);
  };
  return {
    update(p) {
      const t = now();
      if (recent.length === 0) recent.push([start, 0]);
      recent.push([t, p.requests]);
      if (recent.length > 600) recent.splice(1, recent.length - 600);
      last = p;
      if (t - lastDraw < 200) return;
      lastDraw = t;
      draw();
    },
    above(line) {
      stream.write(`\r\x1b[2K${line.replace(CONTROL, '')}\n`);
      if (drawn) draw();
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = '';
      last = null;
    },
  };
}

const silent: Progress = { update() {}, above() {}, done() {} };

export interface Terminal {
  logger: Logger;
  progress: Progress;
  /** Where the JSON log goes, when a file. */
  logFile: string | null;
}

/** The logger and progress display of a command, by whether stderr is a person's terminal. */
export function openTerminal(
  config: Pick<Config, 'logFile' | 'db' | 'apiKey' | 'ratePerMinute' | 'logLevel'>,
  stream: NodeJS.WriteStream = process.stderr,
): Terminal {
  const tty = stream.isTTY === true && !process.env.CI;
  const level = config.logLevel;
  if (!tty) return { logger: createLogger({ logFile: config.logFile, apiKey: config.apiKey, level }), progress: silent, logFile: config.logFile ?? null };
  const logFile = config.logFile ?? path.join(path.dirname(path.resolve(config.db)), 'logs', 'recon.log');
  const file = pino.destination({ dest: logFile, mkdir: true, sync: true });
  const progress = progressBar(stream, config.ratePerMinute);
  const destination = {
    write(line: string) {
      file.write(line);
      const entry = JSON.parse(line) as { level: number; msg?: string; time?: number; err?: unknown; disbursement_id?: string; path?: string };
      const level = LEVELS[entry.level];
      if (!level) return;
      const about = entry.disbursement_id ?? entry.path;
      const err = typeof entry.err === 'string' ? entry.err : '';
      progress.above(`${level}: ${entry.msg ?? ''}${about ? ` (${about})` : ''}${err ? `: ${err}` : ''}`.slice(0, 300));
    },
  };
  return { logger: createLogger({ apiKey: config.apiKey, destination, level }), progress, logFile };
}
