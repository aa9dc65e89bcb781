// A 429 closes the gate for the whole block. The sandbox's request log shows it: after the first 429 the
// client receives, nothing arrives until the block has passed; then the run completes with the tables of
// a run that was never limited. The client, its budget and the sandbox share one virtual clock
// (test/helpers/clock.ts): the waits take no real time, and the requests already sent when the 429 was
// answered arrive at the very instant of that 429, so no timing window is guessed.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RequestLogEntry, type SandboxOptions } from '../../sandbox/index.js';
import { fingerprints, query, syncOnce, tempDir, type Fingerprints } from '../helpers/recon.js';
import { recordFigures, totalRows } from '../helpers/whole-store.js';
import { VirtualClock } from '../helpers/clock.js';

const CONCURRENCY = 2;
// Requests the client can have outstanding at once: each worker reads payouts, refunds and adjustments
// in parallel, and the lister reads the next disbursements page.
const MAX_IN_FLIGHT = CONCURRENCY * 3 + 1;
// Requests already sent when the 429 was answered arrive at its instant (no virtual time passes while
// requests are in flight); anything later left after the client knew.
const IN_FLIGHT_MS = 0;
const BLOCK_MS = 1500;
const DATASET: SandboxOptions = { seed: 41, disbursements: 14, payoutsPerDisbursement: 6 };

const cleanups: Array<() => void> = [];
let clean: Fingerprints;
afterAll(() => cleanups.forEach((c) => c()));
beforeAll(async () => {
  const sb = await startSandbox({ ...DATASET, rateLimit: { limit: 1_000_000 } });
  const t = tempDir('recon-429-');
  cleanups.push(t.cleanup);
  await syncOnce(sb, path.join(t.dir, 'recon.duckdb'));
  clean = await fingerprints(path.join(t.dir, 'recon.duckdb'));
  await sb.close();
});

interface Block { at: number; until: number; inFlight: number }

/**
 * Walks the log in arrival order. A 429 outside a block opens one of `pauseMs(entry)`; inside it, only
 * requests within IN_FLIGHT_MS of its first 429 may arrive (and those are refused too).
 */
function blocksIn(log: RequestLogEntry[], pauseMs: number): { blocks: Block[]; violations: string[] } {
  const blocks: Block[] = [];
  const violations: string[] = [];
  let current: Block | null = null;
  for (const e of [...log].sort((a, b) => a.t - b.t)) {
    if (current && e.t < current.until) {
      if (e.t - current.at <= IN_FLIGHT_MS) {
        current.inFlight += 1;
        if (e.status !== 429) violations.push(`${e.path} answered ${e.status} at +${e.t - current.at} ms inside a block`);
      } else {
        violations.push(`${e.path} arrived ${e.t - current.at} ms after the 429, inside a ${pauseMs} ms block`);
      }
      continue;
    }
    if (e.status === 429) {
      current = { at: e.t, until: e.t + pauseMs, inFlight: 0 };
      blocks.push(current);
    }
  }
  return { blocks, violations };
}

describe('429 from the payments service', () => {
  const variants = [
    { name: 'the interface\'s fixed block (client blockMs)', retryAfter: false, pauseMs: BLOCK_MS, tuning: { blockMs: BLOCK_MS } },
    // Retry-After is whole seconds: the sandbox rounds 1.5 s up to 2 s, and the client waits that long.
    { name: 'the Retry-After header', retryAfter: true, pauseMs: 2000, tuning: {} },
  ];
  for (const v of variants) {
    it(`stops every request for the block (${v.name}), then completes with the tables of an unlimited run`, async () => {
      const clock = new VirtualClock();
      const sb = await startSandbox({ ...DATASET, now: clock.now, rateLimit: { limit: 30, windowMs: 1000, blockMs: BLOCK_MS, retryAfter: v.retryAfter } });
      const t = tempDir('recon-429-');
      cleanups.push(t.cleanup);
      const db = path.join(t.dir, 'recon.duckdb');
      try {
        const run = await syncOnce(sb, db, ['--concurrency', String(CONCURRENCY)], { ...v.tuning, clock });
        expect(run.code).toBe(0);
        const log = sb.requestLog();
        const { blocks, violations } = blocksIn(log, v.pauseMs);
        expect(violations).toEqual([]);
        expect(blocks.length).toBeGreaterThan(0);
        for (const b of blocks) expect(b.inFlight).toBeLessThanOrEqual(MAX_IN_FLIGHT);
        // after each block the client came back and was served again
        for (const b of blocks) expect(log.some((e) => e.t >= b.until && e.status === 200)).toBe(true);
        const [r] = await query(db, `SELECT rate_limited, status FROM runs WHERE run_id = '${run.runId}'`);
        expect(r!.status).toBe('succeeded');
        expect(Number(r!.rate_limited)).toBe(sb.stats().rateLimited);
        // #27: the run knows its blocks and their time (the summary names them; runs.paused_ms keeps it)
        const pauses = run.result!.pauses!;
        expect(pauses.length).toBeGreaterThan(0);
        expect(pauses.length).toBeLessThanOrEqual(blocks.length);
        const [p] = await query(db, `SELECT paused_ms FROM runs WHERE run_id = '${run.runId}'`);
        expect(Number(p!.paused_ms)).toBe(pauses.reduce((ms, x) => ms + x.until - x.from, 0));
        expect(Number(p!.paused_ms)).toBeGreaterThanOrEqual(v.pauseMs);
        expect(await fingerprints(db)).toEqual(clean);
        recordFigures(`rate-limit-${v.retryAfter ? 'retry-after' : 'block'}`, {
          blocks: blocks.length, refused: sb.stats().rateLimited, requests: log.length, rowsCompared: totalRows(clean), lost: 0,
        });
      } finally {
        await sb.close();
      }
    });
  }
});
