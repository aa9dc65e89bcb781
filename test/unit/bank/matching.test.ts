// end to end: a night against the sandbox, its bank statements (three formats, planted cases)
// imported, the checks run: every planted case found on its disbursement with its check, nothing else
// flagged by a bank check, the clean late and reference-less credits settled; a second import adds nothing.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { plantEveryKind } from '../../../sandbox/index.js';
import { writeStatements } from '../../../sandbox/statements.js';
import { importStatements } from '../../../src/bank/import.js';
import { runChecks } from '../../../src/checks/runner.js';
import { openStore } from '../../../src/store/db.js';
import { nightBeforeAll } from '../../helpers/nightly.js';
import { applyBankSettings as setBankSettings } from '../../../src/bank/stage.js';
import { listValue, type DuckDBConnection } from '@duckdb/node-api';

const night = nightBeforeAll({ seed: 17, disbursements: 120, payoutsPerDisbursement: 6, rateLimit: { limit: 1_000_000 }, anomalies: { plant: plantEveryKind(24) } }, 1);

describe('the bank leg', () => {
  it('finds every planted bank case, flags nothing else, and a statement imported twice changes nothing', { timeout: 60_000 }, async () => {
    const dir = path.join(night.dir, 'statements');
    const written = await writeStatements(night.sb.truth, dir);
    expect(written.files.some((f) => f.endsWith('.xml'))).toBe(true);
    expect(written.files.some((f) => f.endsWith('.sta'))).toBe(true);
    expect(written.files.some((f) => f.endsWith('.csv'))).toBe(true);
    expect(written.files.some((f) => f.endsWith('.bai2.txt'))).toBe(true);
    expect([...new Set(written.planted.map((p) => p.kind))].sort()).toEqual(['bank_fee', 'batch_credit', 'duplicate_credit', 'fee_deducted', 'late_credit',
      'missing_credit', 'no_reference', 'other_account']);
    expect(written.planted.filter((p) => p.kind === 'batch_credit')).toHaveLength(3);

    const store = await openStore(night.db);
    try {
      const c = store.connection;
      const first = await importStatements(c, written.files, 'bank-1');
      expect(first.added).toBe(first.entries);
      expect(first.added).toBeGreaterThan(100);
      const again = await importStatements(c, written.files, 'bank-2');
      expect(again.added).toBe(0);

      await runChecks(c, { runId: 'bank-checks' });
      const rows = (await c.runAndReadAll(
        `SELECT check_id, disbursement_id FROM exceptions WHERE run_id = 'bank-checks' AND check_id IN ('bank_missing_credit', 'bank_amount_differs', 'bank_unexpected_credit', 'bank_duplicate_credit', 'bank_account_mismatch') ORDER BY ALL`)).getRowObjectsJS();
      const found = rows.map((r) => `${String(r.check_id)} ${String(r.disbursement_id)}`);
      const expected = written.planted.filter((p) => p.check).map((p) => `${p.check} ${p.disbursement_id}`).sort();
      expect(found).toEqual(expected);

      // the sandbox's statements prove themselves and follow each other: no gap, nothing unbalanced
      expect((await c.runAndReadAll(`SELECT count(*) FROM exceptions WHERE run_id = 'bank-checks' AND check_id IN ('bank_statement_gap', 'bank_statement_unbalanced')`))
        .getRows()[0]![0]).toBe(0n);
      expect((await c.runAndReadAll(`SELECT DISTINCT balance_proof FROM bank_statements WHERE format <> 'csv'`)).getRows()).toEqual([['balanced']]);
      // the planted missing credit is concluded from a statement that covers its whole window, opened before its delivery
      const missing = written.planted.find((p) => p.kind === 'missing_credit')!;
      const [cover] = (await c.runAndReadAll(
        `SELECT s.covered_until, (SELECT min(p.period_from) FROM bank_statement_periods AS p WHERE p.currency = s.currency
           AND tail_agrees(account_digits_tail(s.bank_account_number), p.account_tail)) < CAST(s.delivered_at AS DATE) AS opened_before
         FROM bank_status AS s WHERE s.disbursement_id = $1`, [missing.disbursement_id])).getRowObjectsJS();
      expect(cover!.covered_until).not.toBeNull();
      expect(cover!.opened_before).toBe(true);
      const status = async (id: string) => String((await c.runAndReadAll('SELECT bank_status FROM bank_status WHERE disbursement_id = $1', [id])).getRows()[0]![0]);
      // every planted case in the one vocabulary of bank_status
      const words: Record<string, string> = {
        batch_credit: 'part of a batch credit', bank_fee: 'fee deducted', late_credit: 'settled', no_reference: 'settled',
        missing_credit: 'not arrived', fee_deducted: 'short', other_account: 'on another account', duplicate_credit: 'settled',
      };
      for (const p of written.planted) expect(await status(p.disbursement_id), p.kind).toBe(words[p.kind]);
      const short = written.planted.find((p) => p.kind === 'fee_deducted')!;
      const diff = (await c.runAndReadAll('SELECT amount, credited, bank_difference FROM bank_status WHERE disbursement_id = $1', [short.disbursement_id])).getRowObjectsJS()[0]!;
      expect(BigInt(diff.bank_difference as bigint)).toBe(BigInt(diff.credited as bigint) - BigInt(diff.amount as bigint));
      expect(BigInt(diff.bank_difference as bigint) < 0n).toBe(true);
      // the batch credit settles its three disbursements by reference; the 15.00 charge is the bank's fee
      const how = async (kind: string) => (await c.runAndReadAll(
        `SELECT m.match_kind, m.batch_size, m.fee, currency_factor(m.currency) AS factor FROM bank_matches AS m
         WHERE m.disbursement_id IN (SELECT unnest($1::VARCHAR[]))`, [listValue(written.planted.filter((p) => p.kind === kind).map((p) => p.disbursement_id))])).getRowObjectsJS();
      expect((await how('batch_credit')).map((r) => [r.match_kind, Number(r.batch_size)])).toEqual([['batch', 3], ['batch', 3], ['batch', 3]]);
      expect((await how('bank_fee')).map((r) => [r.match_kind, Number(r.fee) / Number(r.factor)])).toEqual([['fee', 15]]);
      const counts = (await c.runAndReadAll(`SELECT settlement, count(*) AS n FROM bank_status GROUP BY ALL`)).getRowObjectsJS();
      const byStatus = Object.fromEntries(counts.map((r) => [String(r.settlement), Number(r.n)]));
      expect(byStatus.unsettled).toBe(3); // not arrived, short (beyond the fee tolerance), on another account
      expect(byStatus.settled).toBeGreaterThan(100);
      // the Unmatched credits sheet's reader, one credit per page: each of them once
      const { bankCredits } = await import('../../../src/store/read/rows.js');
      const credits: string[] = [];
      for await (const r of bankCredits(c, { pageSize: 1 })) credits.push(`${r.reason} ${r.disbursementId}`);
      const reasons = (await c.runAndReadAll(`SELECT reason || ' ' || disbursement_id FROM bank_unmatched_credits WHERE reason IS NOT NULL ORDER BY statement_id, entry_ref`)).getRows().map((r) => String(r[0]));
      expect(credits).toEqual(reasons);
      expect(credits.length).toBeGreaterThanOrEqual(3);
    } finally {
      store.close();
    }
  });
});

/** A disbursement and bank credits written straight into a store, for the matching rules. */
function fixtures(c: DuckDBConnection) {
  return {
    disbursement: (id: string, delivered: string, amount: number, currency: string, account = '****1234') => c.run(
      `INSERT INTO disbursements VALUES ($1, 'rcp', 'delivered', CAST($2 AS TIMESTAMPTZ), 1, 0, 0, $3, $4, $5, 'complete', NULL, 1, 'h', 'r', 'r', now(), NULL)`,
      [id, delivered, amount, currency, account]),
    credit: (ref: string, day: string, amount: number, currency: string, opts: { remittance?: string; counterparty?: string; batchRefs?: string; tail?: string } = {}) => c.run(
      `INSERT INTO bank_transactions (statement_id, entry_ref, format, account, account_tail, booking_date, value_date, amount, currency, direction,
         end_to_end_id, remittance, counterparty, raw, file_name, run_id, imported_at, batch_refs, batch_count)
       VALUES ('s', $1, 'csv', '****' || $2, $2, CAST($3 AS DATE), CAST($3 AS DATE), $4, $5, 'credit', NULL, $6, $7, NULL, 'f', 'r', now(), $8, $9)`,
      [ref, opts.tail ?? '1234', day, amount, currency, opts.remittance ?? 'PAYOUT', opts.counterparty ?? 'PAYMENTS SERVICE BV', opts.batchRefs ?? null,
        opts.batchRefs ? opts.batchRefs.split(' | ').length : null]),
    rows: async (sql: string) => (await c.runAndReadAll(sql)).getRows().map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v))),
  };
}

describe('the matching rule', () => {
  it('counts business days Monday to Friday, and lets a credit valued the day before delivery (time zones) settle it', async () => {
    const store = await openStore(':memory:');
    try {
      const c = store.connection;
      const f = fixtures(c);
      const days = async (a: string, b: string) => Number((await c.runAndReadAll(`SELECT business_days_after(DATE '${a}', DATE '${b}')`)).getRows()[0]![0]);
      expect(await days('2026-11-06', '2026-11-06')).toBe(0); // Friday, same day
      expect(await days('2026-11-06', '2026-11-09')).toBe(1); // Friday → Monday
      expect(await days('2026-11-06', '2026-11-13')).toBe(5); // a week
      expect(await days('2026-11-09', '2026-11-14')).toBe(4); // Monday → Saturday
      expect(await days('2026-11-07', '2026-11-08')).toBe(0); // a weekend
      expect(await days('2026-11-10', '2026-11-09')).toBe(-1);
      await f.disbursement('dsb_tz', '2026-11-04 00:30:00+00', 5000, 'USD');
      await f.credit('e1', '2026-11-03', 5000, 'USD');
      await f.credit('e2', '2026-11-20', 5000, 'USD');
      expect(await f.rows('SELECT disbursement_id, entry_ref FROM bank_matches')).toEqual([['dsb_tz', 'e1']]); // the close one, not the credit 12 business days later
      // three equal disbursements and three equal credits, no reference: a tie settled round after round
      for (const k of [1, 2, 3]) {
        await f.disbursement(`dsb_tie${k}`, '2026-11-09 10:00:00+00', 777, 'EUR');
        await f.credit(`t${k}`, '2026-11-10', 777, 'EUR');
      }
      const ties = await f.rows(`SELECT disbursement_id, entry_ref, match_kind FROM bank_matches WHERE disbursement_id LIKE 'dsb_tie%' ORDER BY ALL`);
      expect(ties).toEqual([['dsb_tie1', 't1', 'single'], ['dsb_tie2', 't2', 'single'], ['dsb_tie3', 't3', 'single']]);
    } finally {
      store.close();
    }
  });
});

describe('matching beyond one-to-one', () => {
  it('settles three disbursements with one batch credit that names them, and one that adds up to two of them', async () => {
    const store = await openStore(':memory:');
    try {
      const c = store.connection;
      const f = fixtures(c);
      for (const [id, amount] of [['dsb_b1', 10_000], ['dsb_b2', 25_050], ['dsb_b3', 4_950]] as const) await f.disbursement(id, '2026-11-09 10:00:00+00', amount, 'EUR');
      await f.credit('batch', '2026-11-10', 40_000, 'EUR', { remittance: 'SAMMELGUTSCHRIFT', batchRefs: 'E2E-1 SETTLEMENT dsb_b1 | E2E-2 SETTLEMENT dsb_b2 | E2E-3 SETTLEMENT dsb_b3' });
      expect(await f.rows(`SELECT disbursement_id, match_kind, matched_by_reference, batch_size, credit_amount FROM bank_matches ORDER BY ALL`)).toEqual([
        ['dsb_b1', 'batch', true, 3, 40_000], ['dsb_b2', 'batch', true, 3, 40_000], ['dsb_b3', 'batch', true, 3, 40_000]]);
      // a bank that sums a day's transfers: no reference, the provider's name, the exact sum of two of the day's
      await f.disbursement('dsb_one', '2026-11-16 10:00:00+00', 5_000, 'EUR');
      await f.credit('one', '2026-11-17', 5_000, 'EUR', { remittance: 'SETTLEMENT dsb_one' });
      for (const [id, amount] of [['dsb_s1', 12_345], ['dsb_s2', 20_000], ['dsb_s3', 77_777]] as const) await f.disbursement(id, '2026-11-16 10:00:00+00', amount, 'EUR');
      await f.credit('sum', '2026-11-17', 32_345, 'EUR', { remittance: 'TRANSFERS OF THE DAY' });
      expect(await f.rows(`SELECT disbursement_id, match_kind, matched_by_reference, batch_size FROM bank_matches WHERE entry_ref = 'sum' ORDER BY ALL`))
        .toEqual([['dsb_s1', 'batch', false, 2], ['dsb_s2', 'batch', false, 2]]);
      expect(await f.rows(`SELECT bank_status FROM bank_status WHERE disbursement_id = 'dsb_s3'`)).toEqual([['awaiting statement']]);
      expect(await f.rows(`SELECT count(*) FROM bank_unmatched_credits WHERE reason IS NOT NULL`)).toEqual([[0]]);
    } finally {
      store.close();
    }
  });

  it('leaves a sum that two sets of disbursements make to the findings, and never sums a customer’s credit', async () => {
    const store = await openStore(':memory:');
    try {
      const f = fixtures(store.connection);
      await f.disbursement('dsb_one', '2026-11-16 10:00:00+00', 5_000, 'EUR');
      await f.credit('one', '2026-11-17', 5_000, 'EUR', { remittance: 'SETTLEMENT dsb_one' });
      for (const [id, amount] of [['dsb_a', 100], ['dsb_b', 400], ['dsb_c', 200], ['dsb_d', 300]] as const) await f.disbursement(id, '2026-11-16 10:00:00+00', amount, 'EUR');
      await f.credit('ambiguous', '2026-11-17', 500, 'EUR', { remittance: 'TRANSFERS' }); // 100 + 400 and 200 + 300
      await f.credit('customer', '2026-11-17', 600, 'EUR', { counterparty: 'A CUSTOMER LTD', remittance: 'INVOICE 7' }); // 200 + 400, not the provider's
      expect(await f.rows(`SELECT count(*) FROM bank_matches WHERE disbursement_id IN ('dsb_a', 'dsb_b', 'dsb_c', 'dsb_d')`)).toEqual([[0]]);
      expect(await f.rows(`SELECT reason FROM bank_unmatched_credits WHERE entry_ref = 'ambiguous'`)).toEqual([['unexpected']]);
      expect(await f.rows(`SELECT reason FROM bank_unmatched_credits WHERE entry_ref = 'customer'`)).toEqual([[null]]);
    } finally {
      store.close();
    }
  });

  it('classifies a credit short by a bank charge within the tolerance as bank_fee, and a larger shortfall as amount differs', async () => {
    const store = await openStore(':memory:');
    try {
      const c = store.connection;
      const f = fixtures(c);
      await f.disbursement('dsb_fee', '2026-11-09 10:00:00+00', 250_000, 'EUR');
      await f.credit('fee', '2026-11-10', 250_000 - 1_500, 'EUR', { remittance: 'SETTLEMENT dsb_fee' });
      await f.disbursement('dsb_far', '2026-11-09 10:00:00+00', 116_240, 'EUR');
      await f.credit('far', '2026-11-10', 116_240 - 2_906, 'EUR', { remittance: 'SETTLEMENT dsb_far' }); // 2.5 %: over the default 1 %
      expect(await f.rows(`SELECT disbursement_id, match_kind, fee, credit_amount FROM bank_matches ORDER BY ALL`)).toEqual([['dsb_fee', 'fee', 1_500, 248_500]]);
      expect(await f.rows(`SELECT reason, disbursement_id FROM bank_unmatched_credits`)).toEqual([['amount_differs', 'dsb_far']]);
      // a tolerance of its own for EUR: 10.00 at most, so the 15.00 charge is a finding again; another currency keeps '*'
      await setBankSettings(c, { windowDays: 3, feeTolerance: 'EUR:10:1%,*:25:1%' });
      expect(await f.rows(`SELECT count(*) FROM bank_matches`)).toEqual([[0]]);
      await setBankSettings(c, { windowDays: 3, feeTolerance: 'eur:30:3%' });
      expect(await f.rows(`SELECT disbursement_id, fee FROM bank_matches ORDER BY ALL`)).toEqual([['dsb_far', 2_906], ['dsb_fee', 1_500]]);
    } finally {
      store.close();
    }
  });
});
