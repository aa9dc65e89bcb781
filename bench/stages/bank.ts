// bank_ratio: the seven bank checks (matching 100k disbursements against 150k bank lines inside the
// checks: candidates, rounds of mutual first choices, batches and fees, the unmatched credits' reasons,
// coverage from the statements' periods, their gaps and balance proof, the findings) against the matching
// alone computed by the simplest correct query over the raw tables (bank-baseline.ts; at first the baseline was a bare equi-join counting pairs, which no matching
// can approach). The baseline is held to recon's bank_matches, pair for pair, before anything is timed. The store is built in
// SQL: every disbursement credited once (a third by reference, the rest by amount and date, one to three
// business days later), 1 % missing, 1 % short, 1 % twice, and 40 000 other lines (debits, customers).
// The matching also looks for batch credits and bank fees (the 1 % short credits are within the
// default fee tolerance). Three interleaved pairs; each pair's ratio, their median and spread.
// Args: disbursements otherLines
import path from 'node:path';
import { runChecks } from '../../src/checks/runner.js';
import { openStore } from '../../src/store/db.js';
import { setMemoryLimit as limitDuckDbMemory } from '../../src/store/db.js';
import { findingsHash, interleavedPairs, peakRssMb, seconds, stage, tempDir, timed } from '../lib.js';
import { BASELINE_MATCHES } from './bank-baseline.js';

// with the statements' coverage and gaps (bank_coverage, bank_statement_sequence) computed as every night does
const BANK_CHECKS = ['bank_missing_credit', 'bank_amount_differs', 'bank_unexpected_credit', 'bank_duplicate_credit', 'bank_account_mismatch',
  'bank_statement_gap', 'bank_statement_unbalanced'];
const BASELINE = `SELECT match_kind, count(*) FROM (${BASELINE_MATCHES}) GROUP BY ALL`;

stage(async ([disbursementsArg = '100000', otherArg = '40000']) => {
  const n = Number(disbursementsArg);
  const other = Number(otherArg);
  const tmp = tempDir();
  const store = await openStore(path.join(tmp.dir, 'recon.duckdb'));
  try {
    const c = store.connection;
    const started = performance.now();
    await c.run(`
      INSERT INTO disbursements
      SELECT 'dsb_' || lpad(CAST(i AS VARCHAR), 8, '0'), 'rcp_' || CAST(i % 50 AS VARCHAR), 'delivered',
             TIMESTAMPTZ '2026-10-31 12:00:00+00' - to_minutes(CAST(i * 5 AS BIGINT)), 10, 0, 0,
             100000 + (i * 7919) % 9000000, ['EUR','USD','JPY','KWD','MGA','VND'][i % 6 + 1], '****' || lpad(CAST(1000 + i % 50 AS VARCHAR), 4, '0'),
             'complete', NULL, 1, md5(CAST(i AS VARCHAR)), 'b', 'b', now(), NULL
      FROM range(${n}) AS t(i)`);
    const credit = (select: string, where: string) => `
      INSERT INTO bank_transactions (statement_id, entry_ref, format, account, account_tail, booking_date, value_date, amount, currency, direction, end_to_end_id, remittance, counterparty, raw, file_name, run_id, imported_at)
      SELECT 'stmt-' || CAST(i % 50 AS VARCHAR), ${select}, 'camt.053', '**************' || lpad(CAST(1000 + i % 50 AS VARCHAR), 4, '0'),
             lpad(CAST(1000 + i % 50 AS VARCHAR), 4, '0'), d + INTERVAL (1 + i % 3) DAY, d + INTERVAL (1 + i % 3) DAY,
             amount, currency, 'credit', NULL,
             CASE WHEN i % 3 = 0 THEN 'SETTLEMENT ' || id ELSE 'PAYMENTS SERVICE SETTLEMENT' END, 'PAYMENTS SERVICE BV', NULL, 'bench', 'b', now()
      FROM (SELECT CAST(substr(disbursement_id, 5) AS BIGINT) AS i, disbursement_id AS id, CAST(delivered_at AS DATE) AS d, amount, currency FROM disbursements)
      WHERE ${where}`;
    await c.run(credit(`'e-' || CAST(i AS VARCHAR)`, 'i % 100 <> 7'));
    await c.run(credit(`'dup-' || CAST(i AS VARCHAR)`, 'i % 100 = 11'));
    await c.run(`UPDATE bank_transactions SET amount = amount - 250 WHERE entry_ref IN (SELECT 'e-' || CAST(i AS VARCHAR) FROM range(${n}) t(i) WHERE i % 100 = 13)`);
    await c.run(`
      INSERT INTO bank_transactions (statement_id, entry_ref, format, account, account_tail, booking_date, value_date, amount, currency, direction, end_to_end_id, remittance, counterparty, raw, file_name, run_id, imported_at)
      SELECT 'stmt-' || CAST(i % 50 AS VARCHAR), 'o-' || CAST(i AS VARCHAR), 'camt.053', '**************' || lpad(CAST(1000 + i % 50 AS VARCHAR), 4, '0'),
             lpad(CAST(1000 + i % 50 AS VARCHAR), 4, '0'), DATE '2026-06-01' + INTERVAL (i % 150) DAY, NULL, 1000 + i, 'EUR',
             CASE WHEN i % 2 = 0 THEN 'debit' ELSE 'credit' END, NULL, 'INVOICE ' || CAST(i AS VARCHAR), 'A CUSTOMER', NULL, 'bench', 'b', now()
      FROM range(${other}) AS t(i)`);
    await c.run('CHECKPOINT');
    const buildS = seconds(started);
    await limitDuckDbMemory(c, 192);
    const [[d, b]] = (await c.runAndReadAll('SELECT (SELECT count(*) FROM disbursements), (SELECT count(*) FROM bank_transactions)')).getRows() as [[bigint, bigint]];
    // the baseline agrees with recon's matching, pair for pair (and warms both up)
    await runChecks(c, { runId: 'bank-warm', only: BANK_CHECKS });
    const [[onlyBaseline, onlyRecon]] = (await c.runAndReadAll(`
      WITH b AS (${BASELINE_MATCHES}), r AS (SELECT disbursement_id, statement_id, entry_ref, match_kind FROM bank_matches)
      SELECT (SELECT count(*) FROM (SELECT * FROM b EXCEPT ALL SELECT * FROM r)), (SELECT count(*) FROM (SELECT * FROM r EXCEPT ALL SELECT * FROM b))`)).getRows() as [[bigint, bigint]];
    const matches = Object.fromEntries((await c.runAndReadAll('SELECT match_kind, CAST(count(*) AS INTEGER) FROM bank_matches GROUP BY ALL ORDER BY 1')).getRows() as Array<[string, number]>);
    let findings: Record<string, number> = {};
    let lastRun = '';
    const measured = await interleavedPairs(3,
      (k) => timed(async () => {
        const r = await runChecks(c, { runId: `bank-${k}`, only: BANK_CHECKS });
        findings = Object.fromEntries(r.byCheck.map((x) => [x.checkId, x.count]));
        lastRun = `bank-${k}`;
      }),
      () => timed(() => c.run(BASELINE)));
    const pairs = measured.map((p) => ({ checksS: p.recon, bareS: p.baseline, ratio: p.recon / p.baseline }));
    const hash = await findingsHash(c, lastRun);
    return { disbursements: Number(d), bankLines: Number(b), buildS, pairs, findings, findingsHash: hash, matches,
      baselineDisagrees: Number(onlyBaseline) + Number(onlyRecon), peakRssMb: peakRssMb() };
  } finally {
    store.close();
    tmp.cleanup();
  }
});
