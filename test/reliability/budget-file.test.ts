// The service counts its request limit per IP, not per process. Two recon processes on one
// host (two stores, one service) each pacing to the budget alone go over it together; given one
// --budget-file they take turns from it and stay under the limit in every sliding window, without a 429.
// Bounded real time (a compressed window of 2 s, a few dozen requests each); the margins are wide (the
// shared schedule allows 17 in any window, the service 20), so no timing is guessed.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { syncOnce, tempDir } from '../helpers/recon.js';
import { busiestWindow } from '../helpers/sliding-window.js';

const WINDOW_MS = 2000;
const SERVICE_LIMIT = 20;
/** Each recon's budget per window: alone it stays under the limit, two together would not. */
const BUDGET = 16;

const open: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c();
});

async function service(): Promise<Sandbox> {
  const sb = await startSandbox({ seed: 27, disbursements: 6, payoutsPerDisbursement: 3, rateLimit: { limit: SERVICE_LIMIT, windowMs: WINDOW_MS, blockMs: 300 } });
  open.push(() => sb.close());
  return sb;
}

function dir(): string {
  const t = tempDir('recon-budget-file-');
  open.push(t.cleanup);
  return t.dir;
}

/** Two syncs at once, each into its own store, against the one service. */
async function twoStores(sb: Sandbox, extra: string[]) {
  const [a, b] = [dir(), dir()];
  const args = ['--rate-per-minute', String(BUDGET), '--concurrency', '2', ...extra];
  const tuning = { intervalMs: WINDOW_MS, blockMs: 300 };
  return Promise.all([syncOnce(sb, path.join(a, 'recon.duckdb'), args, tuning), syncOnce(sb, path.join(b, 'recon.duckdb'), args, tuning)]);
}

describe('a request budget shared by every recon on the host (--budget-file)', () => {
  it('without it, two stores syncing at once go over the per-IP limit (what the file is for)', async () => {
    const sb = await service();
    const runs = await twoStores(sb, []);
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
    expect(sb.stats().rateLimited).toBeGreaterThan(0);
  }, 60_000);

  it('with one file, two stores syncing at once stay under the limit in every window, 0 429s, both complete', async () => {
    const sb = await service();
    const budgetFile = path.join(dir(), 'recon-budget.json');
    const runs = await twoStores(sb, ['--budget-file', budgetFile]);
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
    expect(runs.map((r) => r.result!.written)).toEqual([6, 6]);
    expect(sb.stats().rateLimited).toBe(0);
    const log = sb.requestLog();
    expect(log.every((e) => e.status !== 429)).toBe(true);
    expect(busiestWindow(log.map((e) => e.t), WINDOW_MS)).toBeLessThanOrEqual(SERVICE_LIMIT);
  }, 60_000);
});

describe('a budget file whose lock is held', () => {
  it('by a live process, with its time an hour ahead: the run says in the log and to its listener what it waits for, and goes on once that process ends', async () => {
    const { spawn } = await import('node:child_process');
    const { hostname } = await import('node:os');
    const { utimesSync, writeFileSync } = await import('node:fs');
    const { Writable } = await import('node:stream');
    const { pino } = await import('pino');
    const { parseCommandArgs, COMMAND_OPTIONS } = await import('../../pipelines/config.js');
    const { runSync } = await import('../../pipelines/sync.js');
    const { bootId, processStart } = await import('../../src/api/budget-lock.js');
    const sb = await service();
    const budgetFile = path.join(dir(), 'recon-budget.json');
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)']);
    open.push(() => void holder.kill());
    writeFileSync(`${budgetFile}.lock`, JSON.stringify({ pid: holder.pid, host: hostname(), bootId: bootId(), start: processStart(holder.pid!), token: 't', at: Date.now() }));
    const ahead = new Date(Date.now() + 3_600_000);
    utimesSync(`${budgetFile}.lock`, ahead, ahead);
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, new Writable({ write(chunk: Buffer, _e, done) {
      lines.push(chunk.toString('utf8'));
      done();
    } }));
    const { config } = parseCommandArgs(['--api-url', sb.url, '--api-key', sb.apiKey, '--db', path.join(dir(), 'recon.duckdb'), '--budget-file', budgetFile,
      '--sample-budget', '0'], COMMAND_OPTIONS.sync, {}, {});
    const waits: string[] = [];
    const out = await runSync(config, logger, { handleSignals: false, tuning: { retryBaseMs: 5 }, onProgress: (p) => {
      if (p.waitingFor && !waits.includes(p.waitingFor)) {
        waits.push(p.waitingFor);
        holder.kill(); // the holder ends: the lock is its leftover now, and is taken over
      }
    } });
    expect(out.code).toBe(0);
    expect(out.result!.written).toBe(6);
    expect(waits).toEqual([expect.stringMatching(new RegExp(`held by pid ${holder.pid}, .*still running; no request leaves until it is released`))]);
    expect(lines.filter((l) => l.includes(`held by pid ${holder.pid}`) && l.includes('"level":40'))).toHaveLength(1);
    expect(lines.some((l) => l.includes("the request budget's lock was released"))).toBe(true);
  }, 60_000);
});
