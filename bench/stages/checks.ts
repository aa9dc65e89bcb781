// checks_ratio on the realistic shape: every check (runChecks, lifecycle included) over a store in
// the sandbox's proportions (synthetic.ts, buildRealisticStoreInSql: payouts, refunds, adjustments, a
// settlement file per disbursement with its lines, quarantined records, restatements, findings already
// open from a first check run), under recon's default DuckDB memory limit, against the bare work any
// complete check set needs on that shape: per line table a GROUP BY disbursement_id sum/count, the
// payment_id / refund_id / reference repeat scans, and the file-line ⋈ API-line join on
// (disbursement, reference). Three interleaved pairs (lib.ts, interleavedPairs); each pair's ratio, their
// median and spread. A child process then runs the checks once more and writes the run's
// exception workbook from the store, as `recon run` does, for its peak RSS (checks-workbook.ts: this
// process's maxRSS holds the bare work too). The store is built by a child process (checks-store.ts).
// Args: disbursements payoutsPer
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { runChecks } from '../../src/checks/runner.js';
import { openStore } from '../../src/store/db.js';
import { setMemoryLimit as limitDuckDbMemory } from '../../src/store/db.js';
import { runStage } from '../child.js';
import { findingsHash, interleavedPairs, seconds, stage, tempDir, timed } from '../lib.js';

/** recon's default --memory-mb (pipelines/config.ts). */
const DEFAULT_MEMORY_MB = 192;

const SCANS = [
  'SELECT disbursement_id, sum(amount), count(*) FROM payouts GROUP BY disbursement_id',
  'SELECT disbursement_id, sum(amount), count(*) FROM refunds GROUP BY disbursement_id',
  'SELECT disbursement_id, entry_type, sum(amount), count(*) FROM adjustments GROUP BY ALL',
  'SELECT disbursement_id, file_no, kind, sum(amount), count(*) FROM file_lines GROUP BY ALL',
  'SELECT payment_id FROM payouts GROUP BY payment_id HAVING count(*) > 1',
  'SELECT refund_id FROM refunds GROUP BY refund_id HAVING count(*) > 1',
  'SELECT disbursement_id, reference FROM adjustments GROUP BY ALL HAVING count(*) > 1',
  `SELECT count(*) FROM file_lines f FULL JOIN (
     SELECT disbursement_id, reference, amount FROM payouts UNION ALL SELECT disbursement_id, refund_id, amount FROM refunds
     UNION ALL SELECT disbursement_id, reference, amount FROM adjustments) a
   ON a.disbursement_id = f.disbursement_id AND a.reference = f.reference WHERE a.amount IS DISTINCT FROM f.amount`,
];

stage(async ([disbursementsArg = '10000', payoutsArg = '100']) => {
  const tmp = tempDir();
  const db = path.join(tmp.dir, 'recon.duckdb');
  try {
    // built by a child process (checks-store.ts): an in-process SQL build of up to 10M payouts is no one's figure
    const built = await runStage('checks-store', [db, disbursementsArg, payoutsArg], 1_800_000);
    const measured = await measurePairs(db);
    // the store closed, a child runs a night's checks and workbook on it, for recon's own peak RSS
    const night = await runStage('checks-workbook', [db, DEFAULT_MEMORY_MB], 1_800_000);
    return { ...measured, buildS: built.buildS, night };
  } finally {
    tmp.cleanup();
  }
});

/** The interleaved pairs of runChecks and the bare work over the store at `db`, and what the last run found. */
async function measurePairs(db: string): Promise<Record<string, unknown>> {
  const store = await openStore(db);
  try {
    const c = store.connection;
    await limitDuckDbMemory(c, DEFAULT_MEMORY_MB);
    const [rows] = (await c.runAndReadAll(`SELECT (SELECT count(*) FROM payouts), (SELECT count(*) FROM disbursements), (SELECT count(*) FROM refunds),
      (SELECT count(*) FROM adjustments), (SELECT count(*) FROM file_lines)`)).getRows();
    // the night before: findings open, lifecycle rows to update
    const first = await runChecks(c, { runId: 'bench-checks-0' });
    await bareScans(c); // warm-up

    let last = first;
    const measured = await interleavedPairs(3,
      (i) => timed(async () => {
        last = await runChecks(c, { runId: `bench-checks-${i + 1}` });
      }),
      () => bareScans(c));
    const pairs = measured.map((p) => ({ checksS: p.recon, bareS: p.baseline.total, ratio: p.recon / p.baseline.total, bareEach: p.baseline.each }));
    const hash = await findingsHash(c, last.runId);
    const slowest = [...last.checks].sort((a, b) => b.ms - a.ms).slice(0, 6);
    return { payouts: Number(rows![0]), disbursements: Number(rows![1]), refunds: Number(rows![2]), adjustments: Number(rows![3]), fileLines: Number(rows![4]),
      pairs, findings: last.findings, findingsHash: hash, firstFindings: first.findings, slowestChecks: slowest, phases: last.phases, memoryMb: DEFAULT_MEMORY_MB };
  } finally {
    store.close();
  }
}

async function bareScans(c: DuckDBConnection): Promise<{ total: number; each: number[] }> {
  const each: number[] = [];
  for (const sql of SCANS) {
    const started = performance.now();
    await c.run(sql); // materialised inside DuckDB, not converted to JS
    each.push(seconds(started));
  }
  return { total: each.reduce((a, b) => a + b, 0), each };
}
