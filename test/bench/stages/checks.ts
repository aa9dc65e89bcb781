// checks_ratio: every check (runChecks, lifecycle included) over a consistent store of
// disbursements × payoutsPer payouts built in SQL, against the two scans any complete check set needs:
// a bare GROUP BY disbursement_id sum/count and a bare GROUP BY payment_id HAVING count(*) > 1.
// The bare scans run once to warm up, then before and after the checks; the best of those is kept.
// Args: disbursements payoutsPer
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { runChecks } from '../../../src/checks/runner.js';
import { openStore } from '../../../src/load/db.js';
import { peakRssMb, seconds, stage, tempDir } from '../lib.js';
import { buildStoreInSql } from '../synthetic.js';

const SCANS = [
  'SELECT disbursement_id, sum(amount), count(*) FROM payouts GROUP BY disbursement_id',
  'SELECT payment_id FROM payouts GROUP BY payment_id HAVING count(*) > 1',
];

stage(async ([disbursementsArg = '10000', payoutsArg = '100']) => {
  const tmp = tempDir();
  const store = await openStore(path.join(tmp.dir, 'recon.duckdb'));
  try {
    const c = store.connection;
    let started = performance.now();
    await buildStoreInSql(c, Number(disbursementsArg), Number(payoutsArg), 'bench-build');
    await c.run('CHECKPOINT');
    const buildS = seconds(started);
    const [rows] = (await c.runAndReadAll('SELECT (SELECT count(*) FROM payouts), (SELECT count(*) FROM disbursements)')).getRows();

    await bareScans(c);
    const before = await bareScans(c);
    started = performance.now();
    const result = await runChecks(c, { runId: 'bench-checks' });
    const checksS = seconds(started);
    const after = await bareScans(c);
    const best = before.total <= after.total ? before : after;
    const slowest = [...result.checks].sort((a, b) => b.ms - a.ms).slice(0, 6);
    return { payouts: Number(rows![0]), disbursements: Number(rows![1]), buildS, checksS, bareS: best.total, bareScansS: best.each,
      findings: result.findings, slowestChecks: slowest, peakRssMb: peakRssMb() };
  } finally {
    store.close();
    tmp.cleanup();
  }
});

async function bareScans(c: DuckDBConnection): Promise<{ total: number; each: number[] }> {
  const each: number[] = [];
  for (const sql of SCANS) {
    const started = performance.now();
    await c.run(sql); // materialised inside DuckDB, not converted to JS
    each.push(seconds(started));
  }
  return { total: each.reduce((a, b) => a + b, 0), each };
}
