// SIGKILL a real child process at random moments (make soak: 60; make test: 10) and re-run each time.
// test/sync/crash.test.ts kills `recon sync` right after a batch commit; here half the kills land at a seeded
// moment uniform over the whole length of an uninterrupted run, so they hit start-up, migrations, listing,
// reads and commits alike (and, in the soak, which kills `recon run`, the checks, the workbook and the publish
// too), and the other half right after the writer's next commit, so some always find a partial store whatever
// the machine's speed. After every kill: no stored disbursement lacks any of its lines, the published snapshot
// (if any) opens and is whole, and the stale lock does not stop the re-run. When a re-run gets through, its
// tables equal the clean run's, and the next cycle starts from an empty folder.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { fingerprints, query, tempDir, type Fingerprints } from '../helpers/recon.js';
import { logCount, runCli, startCli, waitFor } from '../helpers/child.js';
import { testRandom } from '../helpers/seed.js';
import { assertWholeDisbursements, recordFigures, sandboxLineCounts, totalRows, type LineCounts } from '../helpers/whole-store.js';

const SOAK = Boolean(process.env.RECON_SOAK);
// the 20 random moments and more in the soak (make soak); the suite kills at 10, each with a
// start-up, a partial run and a check of the store (about 5 s a kill on a 2-core machine)
const KILLS = SOAK ? 60 : 10;
const COMMAND = SOAK ? 'run' : 'sync';
const CLEAN_EXIT = SOAK ? 1 : 0; // the planted anomaly makes the nightly exit 1; sync has no checks
// long enough (the sync alone about 1.5 s at the default concurrency of 8; at the test's 2, about 3 s with the
// fast suite's shorter latency) that the writer's once-a-second
// commit lands mid-run, so kills find partial stores
const DATASET = { seed: 23, disbursements: 36, payoutsPerDisbursement: 6, latencyMs: SOAK ? [40, 80] as [number, number] : [20, 40] as [number, number], anomalies: { plant: [{ index: 8, kind: 'total_off_by_one' as const }] }, rateLimit: { limit: 1_000_000 } };

let sb: Sandbox;
let clean: Fingerprints;
let cleanMs = 0;
let expected: Map<string, LineCounts>;
const cleanups: Array<() => void> = [];

function runArgs(dir: string): string[] {
  return [COMMAND, '--api-url', sb.url, '--api-key', sb.apiKey, '--db', path.join(dir, 'recon.duckdb'),
    ...(COMMAND === 'run' ? ['--reports', path.join(dir, 'reports')] : []),
    '--log-file', path.join(dir, 'run.log'), '--rate-per-minute', '60000', '--sample-budget', '0', '--concurrency', '2'];
}

beforeAll(async () => {
  sb = await startSandbox(DATASET);
  expected = sandboxLineCounts(sb);
  const t = tempDir('recon-crash-');
  cleanups.push(t.cleanup);
  const started = Date.now();
  const done = await runCli(runArgs(t.dir));
  cleanMs = Date.now() - started;
  expect(done.code, done.stderr).toBe(CLEAN_EXIT);
  clean = await fingerprints(path.join(t.dir, 'recon.duckdb'));
});
afterAll(async () => {
  await sb.close();
  cleanups.forEach((c) => c());
});

/** The published snapshot is a whole database or absent: read it read-only, as an accountant would. */
async function assertSnapshotWhole(file: string): Promise<void> {
  if (!existsSync(file)) return;
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const c = await instance.connect();
  try {
    const rows = (await c.runAndReadAll(`SELECT d.disbursement_id,
        (SELECT count(*) FROM payouts p WHERE p.disbursement_id = d.disbursement_id) AS payouts,
        (SELECT count(*) FROM adjustments a WHERE a.disbursement_id = d.disbursement_id) AS adjustments
      FROM disbursements d`)).getRowObjectsJS();
    expect(rows.length).toBe(expected.size); // a snapshot is published only after a complete run
    for (const r of rows) {
      const e = expected.get(String(r.disbursement_id))!;
      expect([Number(r.payouts), Number(r.adjustments)]).toEqual([e.payouts, e.adjustments]);
    }
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

describe(`recon ${COMMAND} killed with SIGKILL at seeded random moments`, () => {
  it(`ends identical to an uninterrupted run after ${KILLS} kills, never showing a disbursement without its lines`, async () => {
    const random = testRandom(`crash ${COMMAND} kill times`);
    let kills = 0;
    let cycles = 0;
    let stores = 0; // kills after which the store already held disbursements
    let staleLocks = 0; // kills that left the lock file behind for the re-run to recover
    while (kills < KILLS) {
      const t = tempDir('recon-crash-');
      cleanups.push(t.cleanup);
      const db = path.join(t.dir, 'recon.duckdb');
      for (let attempt = 0; ; attempt += 1) {
        const { child, done } = startCli(runArgs(t.dir));
        // The window widens with each kill of a cycle, so a loaded machine still lets a re-run through;
        // once enough kills are done, the last re-run is left alone.
        const killAt = kills < KILLS ? Math.floor(random.next() * cleanMs * (1 + attempt / 3)) : null;
        // every other kill lands right after the writer's next commit instead: however fast the machine runs
        // the sync (a short run commits only at its end), some kills find a store holding disbursements
        const log = path.join(t.dir, 'run.log');
        const committed = logCount(log, 'batch committed');
        const afterCommit = killAt !== null && kills % 2 === 1;
        if (afterCommit) {
          void waitFor(() => logCount(log, 'batch committed') > committed || child.exitCode !== null, 60_000, 5)
            .then(() => child.kill('SIGKILL'));
        }
        const timer = killAt === null || afterCommit ? null : setTimeout(() => child.kill('SIGKILL'), killAt);
        const ended = await done;
        if (timer) clearTimeout(timer);
        if (ended.signal !== 'SIGKILL') {
          // got through: a stale lock or a half-written store would have failed it
          expect(ended.code, ended.stderr).toBe(CLEAN_EXIT);
          break;
        }
        kills += 1;
        if (existsSync(`${db}.lock`)) staleLocks += 1;
        // killed before the store or its first migration was committed: nothing to look at yet
        const migrated = existsSync(db) && (await query(db, `SELECT 1 FROM duckdb_tables() WHERE table_name = 'disbursements'`)).length > 0;
        if (migrated && (await assertWholeDisbursements(db, expected)) > 0) stores += 1;
        await assertSnapshotWhole(path.join(t.dir, 'published', 'recon.duckdb'));
      }
      cycles += 1;
      expect(await fingerprints(db)).toEqual(clean);
    }
    expect(kills).toBeGreaterThanOrEqual(KILLS);
    expect(stores).toBeGreaterThan(0);
    expect(staleLocks).toBeGreaterThan(0);
    recordFigures('crash', { kills, staleLocks, runs: kills + cycles, storesCompared: cycles, rowsCompared: cycles * totalRows(clean), lost: 0 });
  }, SOAK ? 900_000 : 300_000);
});
