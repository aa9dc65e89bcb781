// What a person at a terminal sees of a run: one progress line at the bottom that log lines never
// overwrite. On a TTY the JSON log goes to a file (--log-file, else logs/recon.log beside the store) and
// warnings and errors are also shown as short readable lines above the bar. Not a TTY (cron, CI, a pipe):
// pino JSON on stderr or --log-file as before, and no bar.
import type { Logger } from 'pino';
import { createLogger, logFileDestination } from '../../src/log.js';
import type { Config } from '../config.js';
import { layoutOf, outputsOf, secretsOf } from '../settings.js';
import { guardOutputs } from '../../src/access/own-files.js';

export interface SyncProgress {
  /** total_entries of the list's first envelope: known before the first disbursement is read. */
  announced: number;
  listed: number;
  /** Listed but unchanged since the last run: nothing to read. */
  skipped: number;
  done: number;
  requests: number;
  /** While a 429 block holds every request: when it ends (ms since the epoch). */
  pausedUntil?: number | null;
  /** While no request can leave for another reason (the shared budget file's lock is held): what for. */
  waitingFor?: string | null;
}

interface Progress {
  update(p: SyncProgress): void;
  /** Prints a line above the bar (the bar is redrawn under it). */
  above(line: string): void;
  done(): void;
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const LEVELS: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };
const MINUTE_MS = 60_000;

function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
    : s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** HH:MM of an instant in a time zone (the terminal's own by default). */
function hourMinute(ms: number, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(ms));
}

interface LineClock {
  /** The bar's clock now (ms since the epoch). */
  now: number;
  /** Since the sync began, pauses included: the clock keeps running through a 429 block. */
  elapsedMs: number;
  /** Of which in 429 blocks: the ETA is reckoned from the rest. */
  pausedMs: number;
  /** Requests sent in the window, and how long the window is (a minute once a minute has passed). */
  windowRequests: number;
  windowMs: number;
  budgetPerMinute: number;
  width?: number;
  timeZone?: string;
}

/**
 * The progress line of a sync: disbursements handled of those announced, the requests of the last minute
 * against the budget (before a minute has passed: the requests so far and over how long, never a rate
 * extrapolated from a few seconds), time elapsed, and the ETA — or, during a 429 block, until when.
 */
export function progressLine(p: SyncProgress, o: LineClock): string {
  const total = Math.max(p.announced, p.listed, 1);
  const handled = p.skipped + p.done;
  const width = o.width ?? 20;
  const filled = Math.min(width, Math.round((handled / total) * width));
  const rate = o.windowMs >= MINUTE_MS
    ? `${o.windowRequests} req in the last min of ${o.budgetPerMinute}/min budget`
    : `${o.windowRequests} req in ${clock(o.windowMs)} (${o.budgetPerMinute}/min budget)`;
  const paused = p.pausedUntil != null && p.pausedUntil > o.now;
  const activeMs = Math.max(0, o.elapsedMs - o.pausedMs);
  const eta = paused
    ? `paused: 429 block until ${hourMinute(p.pausedUntil!, o.timeZone)} (${clock(p.pausedUntil! - o.now)} left)`
    : p.waitingFor
      ? `waiting: ${p.waitingFor.replace(CONTROL, '')}`
      : handled >= total
        ? 'finishing'
        : handled > 0 && activeMs > 0
          ? `ETA ${clock(((total - handled) * activeMs) / handled)}`
          : 'ETA …';
  return `disbursements ${'█'.repeat(filled)}${'░'.repeat(width - filled)} ${handled}/${total}`
    + ` (${p.done} read, ${p.skipped} unchanged)  ${rate}  ${clock(o.elapsedMs)} elapsed, ${eta}`;
}

/**
 * The bar: redrawn on every update (at most every 200 ms), and the sync step updates it once a second
 * even when nothing moves, so elapsed time and a pause's countdown keep going. `now` is injected (tests).
 */
export function progressBar(
  stream: Pick<NodeJS.WriteStream, 'write' | 'columns'>,
  budgetPerMinute: number,
  now: () => number = Date.now,
  timeZone?: string,
): Progress {
  const start = now();
  const recent: Array<[number, number]> = []; // [time, requests so far], a sample per update of the last minute
  let pausedMs = 0;
  let lastAt = start;
  let last: SyncProgress | null = null;
  let drawn = '';
  let lastDraw = -Infinity;
  const draw = () => {
    if (!last) return;
    const t = now();
    // the oldest sample at least a minute old is the window's start (or the sync's start, before a minute)
    while (recent.length > 1 && recent[1]![0] <= t - MINUTE_MS) recent.shift();
    const [from, base] = recent[0] ?? [start, 0];
    drawn = progressLine(last, {
      now: t,
      elapsedMs: t - start,
      pausedMs,
      windowRequests: last.requests - base,
      windowMs: Math.min(t - from, MINUTE_MS),
      budgetPerMinute,
      width: 20,
      timeZone,
    }).slice(0, (stream.columns ?? 120) - 1);
    stream.write(`\r\x1b[2K${drawn}`);
  };
  return {
    update(p) {
      const t = now();
      if (recent.length === 0) recent.push([start, 0]);
      // at most a sample per 100 ms (a later count takes the slot), so a minute fits in the bound and the
      // window's start is never an old sample left behind by trimming (which would count minutes as one)
      const newest = recent[recent.length - 1]!;
      if (recent.length > 1 && t - newest[0] < 100) newest[1] = p.requests;
      else recent.push([t, p.requests]);
      if (recent.length > 1200) recent.shift();
      // time spent paused, as the updates saw it: the part of each interval the block covered
      if (last?.pausedUntil != null) pausedMs += Math.max(0, Math.min(t, last.pausedUntil) - lastAt);
      lastAt = t;
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
  config: Config,
  stream: NodeJS.WriteStream = process.stderr,
): Terminal {
  const tty = stream.isTTY === true && !process.env.CI;
  const level = config.logLevel;
  const secrets = secretsOf(config);
  // before a log file is opened (opening one creates it): never onto the store, its lock or its files
  guardOutputs(outputsOf(config), layoutOf(config));
  if (!tty)
    return {
      logger: createLogger({ logFile: config.logFile, secrets, level }),
      progress: silent,
      logFile: config.logFile ?? null,
    };
  const logFile = config.logFile ?? layoutOf(config).log;
  const file = logFileDestination(
    logFile,
    config.logFile
      ? '--log-file / RECON_LOG_FILE'
      : '--db / RECON_DB (the log goes to logs/ beside the store) or --log-file',
  );
  const progress = progressBar(stream, config.ratePerMinute);
  const destination = {
    write(line: string) {
      file.write(line);
      const entry = JSON.parse(line) as {
        level: number;
        msg?: string;
        time?: string;
        err?: unknown;
        disbursement_id?: string;
        path?: string;
      };
      const level = LEVELS[entry.level];
      if (!level) return;
      const about = entry.disbursement_id ?? entry.path;
      const err = typeof entry.err === 'string' ? entry.err : '';
      progress.above(`${level}: ${entry.msg ?? ''}${about ? ` (${about})` : ''}${err ? `: ${err}` : ''}`.slice(0, 300));
    },
  };
  return { logger: createLogger({ secrets, destination, level }), progress, logFile };
}

export interface Watched<T> {
  out: T;
  /** From before the terminal opened to the step's end: what the summary reports as the run's time. */
  elapsedMs: number;
  logFile: string | null;
}

/**
 * A command whose step syncs (run, sync): the step logs to the terminal's logger and feeds the bar, and the
 * bar is cleared however the step ends, so neither the summary nor an error's message lands on it.
 */
export async function watchSync<T>(
  config: Config,
  step: (logger: Logger, onProgress: (p: SyncProgress) => void) => Promise<T>,
): Promise<Watched<T>> {
  const started = Date.now();
  const terminal = openTerminal(config);
  try {
    const out = await step(terminal.logger, (p) => terminal.progress.update(p));
    return { out, elapsedMs: Date.now() - started, logFile: terminal.logFile };
  } finally {
    terminal.progress.done();
  }
}
