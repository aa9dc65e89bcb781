// A 429 closes the gate for the whole block. The sandbox's request log shows it: after the first 429 the
// client receives, nothing arrives until the block has passed; then the run completes with the tables of
// a run that was never limited. The client, its budget and the sandbox share one virtual clock
// (test/helpers/clock.ts): the waits take no real time. A request is judged against the instant the client
// itself heard the 429 (the run's pauses record it, src/sync/pauses.ts), not against the 429's answer: on
// the virtual clock another worker's token wait can move time while a 429 is still on its way back, and
// a request sent in that moment was sent before the client could know (CI saw one arrive 1 ms after).
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

interface Block { at: number; until: number; heard: number; inFlight: number }

/**
 * Walks the log in arrival order. A 429 outside a block opens one of `pauseMs`; inside it, a request may
 * arrive only up to the instant the client heard of that block (`heardAt`: from the run's own pauses), and
 * is refused too; anything later left after the client knew.
 */
function blocksIn(
  log: RequestLogEntry[],
  pauseMs: number,
  heardAt: ReadonlyArray<number>,
): { blocks: Block[]; violations: string[] } {
  const blocks: Block[] = [];
  const violations: string[] = [];
  let current: Block | null = null;
  for (const e of [...log].sort((a, b) => a.t - b.t)) {
    if (current && e.t < current.until) {
      if (e.t <= current.heard) {
        current.inFlight += 1;
        if (e.status !== 429) violations.push(`${e.path} answered ${e.status} at +${e.t - current.at} ms inside a block`);
      } else {
        violations.push(`${e.path} arrived ${e.t - current.at} ms after the 429 (${e.t - current.heard} ms after the client heard it), inside a ${pauseMs} ms block`);
      }
      continue;
    }
    if (e.status === 429) {
      const until = e.t + pauseMs;
      // the first time the client heard of a block at or after this 429 (never before its answer)
      const heard = heardAt.find((h) => h >= e.t && h < until) ?? e.t;
      current = { at: e.t, until, heard, inFlight: 0 };
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
        const pauses = run.result!.pauses!;
        const { blocks, violations } = blocksIn(log, v.pauseMs, pauses.map((p) => p.from).sort((a, b) => a - b));
        expect(violations).toEqual([]);
        expect(blocks.length).toBeGreaterThan(0);
        for (const b of blocks) expect(b.inFlight).toBeLessThanOrEqual(MAX_IN_FLIGHT);
        // after each block the client came back and was served again
        for (const b of blocks) expect(log.some((e) => e.t >= b.until && e.status === 200)).toBe(true);
        const [r] = await query(db, `SELECT rate_limited, status FROM runs WHERE run_id = '${run.runId}'`);
        expect(r!.status).toBe('succeeded');
        expect(Number(r!.rate_limited)).toBe(sb.stats().rateLimited);
        // the run knows its blocks and their time (the summary names them; runs.paused_ms keeps it)
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
