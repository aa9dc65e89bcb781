// The views the workbooks read: one reconciliation row per disbursement with the right status, the
// current exception list, every line for tracing, and the monthly summary by UTC month.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ackFinding } from '../../../src/checks/ack.js';
import { runChecks } from '../../../src/checks/runner.js';
import { CLEAN, addQuarantine, clean, computedAmount, loadClean, openTempStore, rows, withSpec, type TempStore } from '../../helpers/check-fixtures.js';

let t: TempStore;
beforeEach(async () => {
  t = await openTempStore();
});
afterEach(async () => {
  await t.close();
});

const statuses = async () =>
  Object.fromEntries(
    (await rows(t.connection, 'SELECT disbursement_id, status FROM reconciliation')).map((r) => [r.disbursement_id, r.status]),
  );

describe('reconciliation', () => {
  it('has one row per disbursement, all reconciled in the clean dataset, with the identity computed', async () => {
    await loadClean(t.connection);
    await runChecks(t.connection, { runId: 'c1' });
    const recon = await rows(t.connection, 'SELECT * FROM reconciliation ORDER BY disbursement_id');
    expect(recon.map((r) => r.disbursement_id)).toEqual(CLEAN.map((s) => s.id).sort());
    expect(new Set(recon.map((r) => r.status))).toEqual(new Set(['reconciled']));
    const eu1 = recon.find((r) => r.disbursement_id === 'D-EU-1');
    expect(eu1).toMatchObject({
      reported: 246912n, computed: 246912n, difference: 0n, payouts_sum: 223456n, payouts_count: 2n,
      refunds_sum: 5000n, credits_sum: 30000n, debits_sum: 1544n, open_findings: 0n,
    });
  });

  it('says incomplete (never reconciled), invalid, exceptions, and reconciled once acknowledged', async () => {
    const specs = withSpec({ ...clean('D-JP-2'), syncStatus: 'incomplete', syncNote: 'payouts failed' })
      .map((s) => (s.id === 'D-MG-2' ? { ...s, syncStatus: 'invalid' as const } : s))
      .map((s) => (s.id === 'D-EU-1' ? { ...s, amount: computedAmount(s) + 1 } : s));
    await loadClean(t.connection, specs);
    await addQuarantine(t.connection, { disbursementId: 'D-MG-2', resource: 'payout', lineNo: 2, reason: 'no reference' });
    await t.connection.run(`UPDATE disbursements SET number_of_payments = 2 WHERE disbursement_id = 'D-MG-2'`);
    await runChecks(t.connection, { runId: 'c1' });
    expect(await statuses()).toMatchObject({
      'D-JP-2': 'incomplete', 'D-MG-2': 'invalid', 'D-EU-1': 'exceptions', 'D-KW-1': 'reconciled',
    });
    expect(await rows(t.connection, `SELECT computed, difference FROM reconciliation WHERE disbursement_id = 'D-JP-2'`)).toEqual([
      { computed: null, difference: null },
    ]);
    const [open] = await rows(t.connection, `SELECT finding_key FROM open_exceptions WHERE disbursement_id = 'D-EU-1'`);
    await ackFinding(t.connection, { key: String(open?.finding_key), note: 'known', by: 'ana' });
    expect((await statuses())['D-EU-1']).toBe('reconciled');
    expect((await statuses())['D-JP-2']).toBe('incomplete');
  });
});

describe('open_exceptions', () => {
  it('lists open and acknowledged findings with status, age and ack fields', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-EU-1'), amount: 1 }));
    await runChecks(t.connection, { runId: 'c1', now: new Date(Date.now() - 3 * 86_400_000 - 60_000) });
    const [row] = await rows(t.connection, 'SELECT status, age_days, check_id, ack_note FROM open_exceptions');
    expect(row).toEqual({ status: 'new', age_days: 3, check_id: 'total_identity', ack_note: null });
  });
});

describe('payment_lines', () => {
  it('lists every line with its sign in the identity', async () => {
    const jp = clean('D-JP-1');
    jp.adjustments = [...(jp.adjustments ?? []), { ref: 'jp1-a3', amount: 77, entryType: 'reversal' }];
    await loadClean(t.connection, withSpec(jp));
    const lines = await rows(
      t.connection,
      `SELECT kind, reference, amount, signed_amount, recipient_id FROM payment_lines
       WHERE disbursement_id = 'D-JP-1' ORDER BY kind, line_no`,
    );
    expect(lines.map((l) => [l.kind, l.reference, l.signed_amount])).toEqual([
      ['adjustment', 'jp1-a1', 200n], ['adjustment', 'jp1-a2', -150n], ['adjustment', 'jp1-a3', null],
      ['payout', 'jp1-p1', 12000n], ['payout', 'jp1-p2', 3500n], ['refund', 'jp1-r1', -1000n],
    ]);
  });
});

describe('monthly_summary', () => {
  it('groups by UTC month whatever the session time zone, with net and variance', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-EU-1'), amount: 246913 }));
    await t.connection.run(`SET TimeZone = 'Asia/Tokyo'`); // 2026-05-31T22:30Z is already June in Tokyo
    const eur = await rows(t.connection, `SELECT * FROM monthly_summary WHERE currency = 'EUR' ORDER BY month`);
    expect(eur.map((r) => [r.month, r.disbursements, r.payouts, r.refunds, r.credit_adjustments, r.debit_adjustments,
      r.computed_net, r.disbursed_total, r.variance])).toEqual([
      ['2026-05', 1n, 223456n, 5000n, 30000n, 1544n, 246912n, 246913n, 1n],
      ['2026-06', 1n, 5000n, 5000n, 0n, 0n, 0n, 0n, 0n],
    ]);
  });
});
