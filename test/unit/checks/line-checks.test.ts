// One named edge case per line-level check: it fires, with the numbers an accountant needs, and the
// near miss next to it does not.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addQuarantine, clean, loadClean, openTempStore, runCheck, withSpec, type TempStore,
} from '../../helpers/check-fixtures.js';

let t: TempStore;
beforeEach(async () => {
  t = await openTempStore();
});
afterEach(async () => {
  await t.close();
});

describe('total_identity', () => {
  it('total-off-by-one: flags an amount one subunit above its lines, with the identity spelled out', async () => {
    const spec = clean('D-EU-1');
    await loadClean(t.connection, withSpec({ ...spec, amount: 246913 }));
    const found = await runCheck(t.connection, 'total_identity');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      check_id: 'total_identity', severity: 'error', disbursement_id: 'D-EU-1', recipient_id: 'R-EU-0004',
      currency: 'EUR', expected: 246912n, actual: 246913n, difference: 1n,
    });
    expect(found[0]?.detail).toBe(
      'disbursement amount 2469.13 EUR ≠ payouts 2234.56 + credits 300.00 − refunds 50.00 − debits 15.44 = 2469.12;'
        + ' difference 0.01 (2 payouts, 1 refunds, 2 credit/debit adjustments)',
    );
  });

  it('debit-as-credit: a debit adjustment counted as credit in the amount is a difference of twice the debit', async () => {
    const spec = clean('D-KW-1'); // 1234 + 5 − 1000 = 239 fils; counted as credit: 2239
    await loadClean(t.connection, withSpec({ ...spec, amount: 2239 }));
    const found = await runCheck(t.connection, 'total_identity');
    expect(found.map((r) => [r.disbursement_id, r.expected, r.actual, r.difference])).toEqual([
      ['D-KW-1', 239n, 2239n, 2000n],
    ]);
    expect(String(found[0]?.detail)).toContain('disbursement amount 2.239 KWD');
  });

  it('leaves out an adjustment of another entry type and skips incomplete disbursements', async () => {
    const jp = clean('D-JP-1');
    jp.adjustments = [...(jp.adjustments ?? []), { ref: 'jp1-a3', amount: 77, entryType: 'reversal' }];
    jp.amount = 14550; // the identity without the reversal
    const incomplete = { ...clean('D-JP-2'), amount: 1, syncStatus: 'incomplete' as const };
    await loadClean(t.connection, withSpec(jp).map((s) => (s.id === 'D-JP-2' ? incomplete : s)));
    expect(await runCheck(t.connection, 'total_identity')).toEqual([]);
  });
});

describe('gross_variance', () => {
  it('plus-1000-minus-1000: two file lines wrong in opposite directions give gross 2000 with net 0', async () => {
    await loadClean(t.connection);
    await t.connection.run(`UPDATE file_lines SET amount = amount + 1000 WHERE disbursement_id = 'D-EU-1' AND reference = 'eu1-p1'`);
    await t.connection.run(`UPDATE file_lines SET amount = amount - 1000 WHERE disbursement_id = 'D-EU-1' AND reference = 'eu1-p2'`);
    const found = await runCheck(t.connection, 'gross_variance');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ disbursement_id: 'D-EU-1', expected: 0n, actual: 2000n, difference: 2000n });
    expect(String(found[0]?.detail)).toContain('net difference 0.00');
    // the totals still agree: only the gross view sees it
    expect(await runCheck(t.connection, 'total_identity')).toEqual([]);
  });

  it('ignores file lines that have no API line (file_vs_api reports those)', async () => {
    await loadClean(t.connection);
    await t.connection.run(
      `INSERT INTO file_lines VALUES ('D-EU-1', 1, 99, 'payout', NULL, 'not-in-api', NULL, 'EUR', 500, 'sync-1', 'x', 1)`,
    );
    expect(await runCheck(t.connection, 'gross_variance')).toEqual([]);
  });
});

describe('count checks', () => {
  it('count-payments-wrong: number_of_payments one above the payouts received', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-JP-1'), numberOfPayments: 3 }));
    const found = await runCheck(t.connection, 'count_payments');
    expect(found.map((r) => [r.disbursement_id, r.subject, r.expected, r.actual, r.difference])).toEqual([
      ['D-JP-1', 'number_of_payments', 2n, 3n, 1n],
    ]);
  });

  it('count-refunds-wrong and count-adjustments-wrong fire on their own counts only', async () => {
    const specs = withSpec({ ...clean('D-EU-2'), numberOfRefunds: 0 }).map((s) =>
      s.id === 'D-KW-2' ? { ...s, numberOfAdjustments: 2 } : s,
    );
    await loadClean(t.connection, specs);
    expect((await runCheck(t.connection, 'count_refunds')).map((r) => [r.disbursement_id, r.difference])).toEqual([
      ['D-EU-2', -1n],
    ]);
    expect((await runCheck(t.connection, 'count_adjustments')).map((r) => [r.disbursement_id, r.difference])).toEqual([
      ['D-KW-2', 1n],
    ]);
    expect(await runCheck(t.connection, 'count_payments')).toEqual([]);
  });

  it('counts a quarantined payout as received, so an invalid record is not also a count error', async () => {
    const spec = { ...clean('D-JP-1'), numberOfPayments: 3, syncStatus: 'invalid' as const };
    await loadClean(t.connection, withSpec(spec));
    await addQuarantine(t.connection, { disbursementId: 'D-JP-1', resource: 'payout', lineNo: 3, reason: 'amount is a string' });
    expect(await runCheck(t.connection, 'count_payments')).toEqual([]);
  });
});

describe('currency_mismatch', () => {
  it('flags a payout in another currency than its disbursement, subject = its reference', async () => {
    const spec = clean('D-EU-1');
    spec.payouts = [{ ref: 'eu1-p1', amount: 123456, currency: 'USD' }, { ref: 'eu1-p2', amount: 100000 }];
    await loadClean(t.connection, withSpec(spec));
    const found = await runCheck(t.connection, 'currency_mismatch');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ disbursement_id: 'D-EU-1', subject: 'eu1-p1', currency: 'USD', actual: 123456n });
    expect(found[0]?.detail).toBe('payout eu1-p1 (line 1) is 1234.56 USD in a EUR disbursement');
  });
});

describe('duplicate checks', () => {
  it('duplicate-payout: the same payment settled again in a later disbursement; the first is not flagged', async () => {
    const later = clean('D-EU-2');
    later.payouts = [...(later.payouts ?? []), { ref: 'eu1-p2', amount: 100000 }];
    await loadClean(t.connection, withSpec(later));
    const found = await runCheck(t.connection, 'duplicate_payout');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      disbursement_id: 'D-EU-2', subject: 'pay-eu1-p2', expected: 0n, actual: 100000n, difference: 100000n,
    });
    expect(String(found[0]?.detail)).toContain('already settled in disbursement D-EU-1 delivered 2026-05-31 (line 2)');
  });

  it('duplicate-payout within one disbursement flags the second and third occurrence and names the previous', async () => {
    const spec = clean('D-JP-2');
    spec.payouts = [
      { ref: 'jp2-p1', amount: 9999 },
      { ref: 'jp2-p1b', amount: 9999, paymentId: 'pay-jp2-p1' },
      { ref: 'jp2-p1c', amount: 9999, paymentId: 'pay-jp2-p1' },
    ];
    await loadClean(t.connection, withSpec(spec));
    const found = await runCheck(t.connection, 'duplicate_payout');
    expect(found.map((r) => r.detail).sort()).toEqual([
      'payout payment_id pay-jp2-p1 (line 2, 9999 JPY) was already settled in this disbursement (line 1); occurrence 2 of 3',
      'payout payment_id pay-jp2-p1 (line 3, 9999 JPY) was already settled in this disbursement (line 1);'
        + ' previous occurrence in this disbursement (line 2); occurrence 3 of 3',
    ]);
  });

  it('duplicate-refund and duplicate-adjustment key on refund_id and adjustment reference', async () => {
    const eu2 = clean('D-EU-2');
    eu2.refunds = [...(eu2.refunds ?? []), { ref: 'eu1-r1', amount: 5000 }];
    eu2.adjustments = [{ ref: 'eu1-a2', amount: 1544, entryType: 'debit' }];
    await loadClean(t.connection, withSpec(eu2));
    expect((await runCheck(t.connection, 'duplicate_refund')).map((r) => [r.disbursement_id, r.subject])).toEqual([
      ['D-EU-2', 'eu1-r1'],
    ]);
    expect((await runCheck(t.connection, 'duplicate_adjustment')).map((r) => [r.disbursement_id, r.subject])).toEqual([
      ['D-EU-2', 'eu1-a2'],
    ]);
  });
});

describe('unknown_entry_type', () => {
  it('flags an adjustment with entry type reversal', async () => {
    const spec = clean('D-KW-2');
    spec.adjustments = [...(spec.adjustments ?? []), { ref: 'kw2-a2', amount: 10, entryType: 'reversal' }];
    await loadClean(t.connection, withSpec(spec));
    const found = await runCheck(t.connection, 'unknown_entry_type');
    expect(found.map((r) => [r.disbursement_id, r.subject, r.actual])).toEqual([['D-KW-2', 'kw2-a2', 10n]]);
    expect(String(found[0]?.detail)).toContain("has entry type 'reversal', neither credit nor debit");
  });
});

describe('invalid_record', () => {
  it('reports the quarantine rows of the current version and page problems of the latest sync only', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-JP-2'), syncStatus: 'invalid' }));
    await addQuarantine(t.connection, { disbursementId: 'D-JP-2', resource: 'payout', lineNo: 2, reason: 'reference is missing' });
    await addQuarantine(t.connection, { disbursementId: null, resource: 'page', reason: 'truncated JSON' });
    // an older run: its page problem and a disbursement now clean do not count
    await addQuarantine(t.connection, { disbursementId: null, resource: 'page', reason: 'old', runId: 'sync-0', at: '2026-06-01T00:00:00Z' });
    await addQuarantine(t.connection, { disbursementId: 'D-EU-1', resource: 'payout', lineNo: 1, reason: 'old', runId: 'sync-0' });
    const found = await runCheck(t.connection, 'invalid_record');
    expect(found.map((r) => [r.disbursement_id, r.subject, r.recipient_id]).sort()).toEqual([
      ['D-JP-2', 'payout line 2', 'R-JP-0001'],
      [null, 'page', null],
    ].sort());
    expect(found.find((r) => r.disbursement_id === 'D-JP-2')?.detail).toContain('was quarantined: reference is missing');
  });
});

describe('unlisted_currency', () => {
  it('warns once per disbursement and kind of line for a code the interface does not list', async () => {
    const spec = { ...clean('D-JP-2'), currency: 'XYZ' };
    await loadClean(t.connection, withSpec(spec));
    const found = await runCheck(t.connection, 'unlisted_currency');
    expect(found.map((r) => [r.severity, r.disbursement_id, r.subject]).sort()).toEqual([
      ['warning', 'D-JP-2', 'disbursement currency XYZ'],
      ['warning', 'D-JP-2', 'payout currency XYZ'],
    ]);
  });
});
