// #17 end to end: a night against the sandbox, its bank statements (three formats, planted cases)
// imported, the checks run: every planted case found on its disbursement with its check, nothing else
// flagged by a bank check, the clean late and reference-less credits settled; a second import adds nothing.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { plantEveryKind } from '../../src/sandbox/index.js';
import { writeStatements } from '../../src/sandbox/statements.js';
import { importStatements } from '../../src/bank/import.js';
import { runChecks } from '../../src/checks/runner.js';
import { openStore } from '../../src/load/db.js';
import { nightBeforeAll } from '../helpers/nightly.js';

const night = nightBeforeAll({ seed: 17, disbursements: 120, payoutsPerDisbursement: 6, rateLimit: { limit: 1_000_000 }, anomalies: { plant: plantEveryKind(24) } }, 1);

describe('#17 the bank leg', () => {
  it('finds every planted bank case, flags nothing else, and a statement imported twice changes nothing', { timeout: 60_000 }, async () => {
    const dir = path.join(night.dir, 'statements');
    const written = await writeStatements(night.sb.truth, dir);
    expect(written.files.some((f) => f.endsWith('.xml'))).toBe(true);
    expect(written.files.some((f) => f.endsWith('.sta'))).toBe(true);
    expect(written.files.some((f) => f.endsWith('.csv'))).toBe(true);
    expect(written.planted.map((p) => p.kind).sort()).toEqual(['duplicate_credit', 'fee_deducted', 'late_credit', 'missing_credit', 'no_reference', 'other_account']);

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

      const status = async (id: string) => String((await c.runAndReadAll('SELECT bank_status FROM bank_status WHERE disbursement_id = $1', [id])).getRows()[0]![0]);
      for (const p of written.planted.filter((x) => !x.check)) expect(await status(p.disbursement_id), p.kind).toBe('settled');
      const counts = (await c.runAndReadAll(`SELECT bank_status, count(*) AS n FROM bank_status GROUP BY ALL`)).getRowObjectsJS();
      const byStatus = Object.fromEntries(counts.map((r) => [String(r.bank_status), Number(r.n)]));
      expect(byStatus.unsettled).toBe(3); // missing, fee deducted, other account
      expect(byStatus.settled).toBeGreaterThan(100);
      // the Unmatched credits sheet's reader, one credit per page: each of them once
      const { bankCredits } = await import('../../src/report/run-report.js');
      const credits: string[] = [];
      for await (const r of bankCredits(c, 'TRUE', 1)) credits.push(`${r.reason} ${r.disbursementId}`);
      const reasons = (await c.runAndReadAll(`SELECT reason || ' ' || disbursement_id FROM bank_unmatched_credits WHERE reason IS NOT NULL ORDER BY statement_id, entry_ref`)).getRows().map((r) => String(r[0]));
      expect(credits).toEqual(reasons);
      expect(credits.length).toBeGreaterThanOrEqual(3);
    } finally {
      store.close();
    }
  });
});

describe('#17 the matching rule', () => {
  it('counts business days Monday to Friday, and lets a credit valued the day before delivery (time zones) settle it', async () => {
    const store = await openStore(':memory:');
    try {
      const c = store.connection;
      const days = async (a: string, b: string) => Number((await c.runAndReadAll(`SELECT business_days_after(DATE '${a}', DATE '${b}')`)).getRows()[0]![0]);
      expect(await days('2026-11-06', '2026-11-06')).toBe(0); // Friday, same day
      expect(await days('2026-11-06', '2026-11-09')).toBe(1); // Friday → Monday
      expect(await days('2026-11-06', '2026-11-13')).toBe(5); // a week
      expect(await days('2026-11-09', '2026-11-14')).toBe(4); // Monday → Saturday
      expect(await days('2026-11-07', '2026-11-08')).toBe(0); // a weekend
      expect(await days('2026-11-10', '2026-11-09')).toBe(-1);
      await c.run(`INSERT INTO disbursements VALUES ('dsb_tz', 'rcp', 'delivered', TIMESTAMPTZ '2026-11-04 00:30:00+00', 1, 0, 0, 5000, 'USD', '****1234',
        'complete', NULL, 1, 'h', 'r', 'r', now(), NULL)`);
      await c.run(`INSERT INTO bank_transactions VALUES ('s', 'e1', 'csv', '****1234', '1234', DATE '2026-11-03', DATE '2026-11-03', 5000, 'USD', 'credit',
        NULL, 'PAYOUT', 'PAYMENTS SERVICE BV', NULL, 'f', 'r', now()),
        ('s', 'e2', 'csv', '****1234', '1234', DATE '2026-11-20', DATE '2026-11-20', 5000, 'USD', 'credit', NULL, 'PAYOUT', 'PAYMENTS SERVICE BV', NULL, 'f', 'r', now())`);
      const matched = (await c.runAndReadAll('SELECT disbursement_id, entry_ref FROM bank_matches')).getRows();
      expect(matched).toEqual([['dsb_tz', 'e1']]); // the close one, not the credit 12 business days later
      // three equal disbursements and three equal credits, no reference: a tie settled round after round
      for (const k of [1, 2, 3]) {
        await c.run(`INSERT INTO disbursements VALUES ('dsb_tie${k}', 'rcp', 'delivered', TIMESTAMPTZ '2026-11-09 10:00:00+00', 1, 0, 0, 777, 'EUR', '****1234',
          'complete', NULL, 1, 'h', 'r', 'r', now(), NULL)`);
        await c.run(`INSERT INTO bank_transactions VALUES ('s', 't${k}', 'csv', '****1234', '1234', DATE '2026-11-10', DATE '2026-11-10', 777, 'EUR', 'credit',
          NULL, 'PAYOUT', 'PAYMENTS SERVICE BV', NULL, 'f', 'r', now())`);
      }
      const ties = (await c.runAndReadAll(`SELECT disbursement_id, entry_ref FROM bank_matches WHERE disbursement_id LIKE 'dsb_tie%' ORDER BY ALL`)).getRows();
      expect(ties).toEqual([['dsb_tie1', 't1'], ['dsb_tie2', 't2'], ['dsb_tie3', 't3']]);
    } finally {
      store.close();
    }
  });
});
