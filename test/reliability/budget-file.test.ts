// Issue #27: the service counts its request limit per IP, not per process. Two recon processes on one
// host (two stores, one service) each pacing to the budget alone go over it together; given one
// --budget-file they take turns from it and stay under the limit in every sliding window, without a 429.
// Bounded real time (a compressed window of 2 s, a few dozen requests each); the margins are wide (the
// shared schedule allows 17 in any window, the service 20), so no timing is guessed.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { syncOnce, tempDir } from '../helpers/recon.js';

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

/** The most requests the service saw in any sliding window. */
function busiestWindow(times: number[]): number {
  const t = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < t.length; i += 1) {
    while (t[i]! - t[j]! >= WINDOW_MS) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
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
    expect(busiestWindow(log.map((e) => e.t))).toBeLessThanOrEqual(SERVICE_LIMIT);
  }, 60_000);
});
