// Named edge cases for the checks that look at files, history, samples and the sync's status.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addSample, clean, loadClean, openTempStore, runCheck, withSpec, type TempStore } from '../../helpers/check-fixtures.js';

let t: TempStore;
beforeEach(async () => {
  t = await openTempStore();
});
afterEach(async () => {
  await t.close();
});

const brief = (rows: Array<Record<string, unknown>>) =>
  rows
    .map((r) => [r.severity, r.disbursement_id, r.subject, r.expected, r.actual])
    .sort((a, b) => String(a[2]).localeCompare(String(b[2])));

describe('file_vs_api', () => {
  it('payout-missing-from-api: a file line with no API line, in every file that has it', async () => {
    await loadClean(t.connection);
    await t.connection.run(
      `INSERT INTO file_lines VALUES ('D-KW-1', 1, 9, 'payout', NULL, 'kw1-extra', 'pay-x', 'KWD', 700, 'sync-1', 'x', 1)`,
    );
    const found = await runCheck(t.connection, 'file_vs_api');
    const lines = found.filter((r) => !String(r.subject).includes('footer'));
    expect(brief(lines)).toEqual([['error', 'D-KW-1', 'kw1-extra', 0n, 700n]]);
    // the file now has one detail line more than its footer says
    expect(found.map((r) => r.subject)).toContain('settlement_D-KW-1_1.dat footer count');
    expect(lines[0]?.detail).toBe(
      'payout kw1-extra (file settlement_D-KW-1_1.dat line 9, 0.700 KWD) has no matching payout in the API',
    );
  });

  it('at most 1000 line findings per file, the rest one summary with their count and gross', async () => {
    await loadClean(t.connection);
    await t.connection.run(
      `INSERT INTO file_lines SELECT 'D-KW-1', 1, 100 + i, 'payout', NULL, 'extra-' || lpad(CAST(i AS VARCHAR), 5, '0'), NULL, 'KWD', 10, 'sync-1', 'x', 1
         FROM range(1500) t(i)`,
    );
    const found = (await runCheck(t.connection, 'file_vs_api')).filter((r) => String(r.subject).startsWith('extra-') || String(r.subject).includes('beyond'));
    expect(found).toHaveLength(1001);
    const summary = found.find((r) => String(r.subject).includes('beyond'));
    expect(summary).toMatchObject({ subject: 'settlement_D-KW-1_1.dat: line differences beyond the first 1000', currency: 'KWD', difference: 5000n });
    expect(summary?.detail).toBe('file settlement_D-KW-1_1.dat has 500 more line differences with the API than the 1000 listed, 5.000 KWD gross');
  });

  it('payout-missing-from-file: an API payout absent from both files of the disbursement', async () => {
    await loadClean(t.connection);
    await t.connection.run(`DELETE FROM file_lines WHERE reference = 'kw2-p1'`);
    await t.connection.run(`UPDATE disbursement_files SET footer_count = 1 WHERE disbursement_id = 'D-KW-2'`);
    const found = await runCheck(t.connection, 'file_vs_api');
    const missing = found.filter((r) => r.subject === 'kw2-p1');
    expect(missing).toHaveLength(2);
    expect(missing[0]).toMatchObject({ expected: 250000n, actual: 0n, difference: -250000n });
    expect(String(missing[0]?.detail)).toMatch(/^payout kw2-p1 \(API line 1, 250\.000 KWD\) is missing from file/);
  });

  it('file-amount-differs: one finding with both amounts; an adjustment booked the other way is a difference too', async () => {
    await loadClean(t.connection);
    await t.connection.run(`UPDATE file_lines SET amount = 12001 WHERE reference = 'jp1-p1'`);
    await t.connection.run(`UPDATE file_lines SET entry_type = 'credit' WHERE reference = 'jp1-a2'`);
    const found = await runCheck(t.connection, 'file_vs_api');
    expect(brief(found)).toEqual([
      ['error', 'D-JP-1', 'jp1-a2', 150n, 150n],
      ['error', 'D-JP-1', 'jp1-p1', 12000n, 12001n],
    ]);
    expect(found.find((r) => r.subject === 'jp1-p1')?.detail).toBe(
      'payout jp1-p1: file settlement_D-JP-1_1.dat line 2 says 12001 JPY, API line 1 says 12000 JPY',
    );
  });

  it('footer-mismatch: footer count against detail lines and the disbursement, footer total against the amount', async () => {
    await loadClean(t.connection);
    await t.connection.run(
      `UPDATE disbursement_files SET footer_count = 6, footer_total = 9 WHERE disbursement_id = 'D-JP-1'`,
    );
    const found = await runCheck(t.connection, 'file_vs_api');
    expect(brief(found)).toEqual([
      ['error', 'D-JP-1', 'settlement_D-JP-1_1.dat footer count', 5n, 6n],
      ['error', 'D-JP-1', 'settlement_D-JP-1_1.dat footer count vs disbursement', 5n, 6n],
      ['error', 'D-JP-1', 'settlement_D-JP-1_1.dat footer total', 14550n, 9n],
    ]);
  });

  it('gives exactly one finding per file that was not parsed, with the severity of its status', async () => {
    await loadClean(t.connection);
    await t.connection.run(`DELETE FROM file_lines WHERE disbursement_id IN ('D-KW-1', 'D-EU-1', 'D-EU-2', 'D-JP-2')`);
    for (const [id, status] of [
      ['D-KW-1', 'unrecognised'], ['D-EU-1', 'unparseable'], ['D-EU-2', 'too_large'], ['D-JP-2', 'download_failed'],
    ]) {
      await t.connection.run(
        `UPDATE disbursement_files SET parse_status = $2, layout = NULL WHERE disbursement_id = $1 AND file_no = 1`,
        [id!, status!],
      );
    }
    await t.connection.run(`DELETE FROM disbursement_files WHERE disbursement_id = 'D-KW-1' AND file_no = 2`);
    await t.connection.run(`DELETE FROM file_lines WHERE disbursement_id = 'D-KW-1'`);
    const found = await runCheck(t.connection, 'file_vs_api');
    expect(found.map((r) => [r.disbursement_id, r.severity, r.subject]).sort()).toEqual([
      ['D-EU-1', 'error', 'settlement_D-EU-1_1.dat'],
      ['D-EU-2', 'warning', 'settlement_D-EU-2_1.dat'],
      ['D-JP-2', 'warning', 'settlement_D-JP-2_1.dat'],
      ['D-KW-1', 'warning', 'settlement_D-KW-1_1.dat'],
    ]);
  });

  it('does not compare lines of an incomplete disbursement', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-EU-1'), syncStatus: 'incomplete' }));
    await t.connection.run(`DELETE FROM payouts WHERE disbursement_id = 'D-EU-1'`);
    expect(await runCheck(t.connection, 'file_vs_api')).toEqual([]);
  });
});

describe('bank_account_changed', () => {
  it('flags only the first disbursement paid to the new account', async () => {
    const third = { ...clean('D-EU-2'), id: 'D-EU-3', deliveredAt: '2026-07-30T22:30:00Z', bank: '****9999' };
    third.payouts = [{ ref: 'eu3-p1', amount: 1 }];
    third.refunds = [];
    const specs = withSpec({ ...clean('D-EU-2'), bank: '****9999' });
    await loadClean(t.connection, [...specs, third]);
    const found = await runCheck(t.connection, 'bank_account_changed');
    expect(found.map((r) => [r.severity, r.disbursement_id])).toEqual([['warning', 'D-EU-2']]);
    expect(found[0]?.detail).toBe('bank account changed from ****0004 (disbursement D-EU-1 delivered 2026-05-31) to ****9999');
  });
});

describe('restated', () => {
  async function restate(): Promise<void> {
    // version 1 as first stored; the current row is version 2 with one more subunit on a payout
    await t.connection.run(`
      INSERT INTO disbursement_history (disbursement_id, version, recipient_id, delivered_at, number_of_payments,
        number_of_refunds, number_of_adjustments, amount, currency, content_hash, payouts_count, payouts_sum,
        run_id, superseded_at, superseded_by_run_id)
      SELECT disbursement_id, 1, recipient_id, delivered_at, number_of_payments, number_of_refunds,
        number_of_adjustments, amount - 1, currency, 'hash-old', 2, 223455, 'sync-0', TIMESTAMPTZ '2026-06-15 00:00:00+00', 'sync-1'
      FROM disbursements WHERE disbursement_id = 'D-EU-1'`);
    await t.connection.run(`UPDATE disbursements SET version = 2 WHERE disbursement_id = 'D-EU-1'`);
  }

  it('reports a superseded version that differs from the current one, with what changed', async () => {
    await loadClean(t.connection);
    await restate();
    const found = await runCheck(t.connection, 'restated');
    expect(brief(found)).toEqual([['error', 'D-EU-1', 'version 1', 246911n, 246912n]]);
    expect(found[0]?.detail).toBe(
      'disbursement restated: version 1 (superseded 2026-06-15) differs from current version 2; amount 2469.11 → 2469.12 EUR;'
        + ' payouts 2 totalling 2234.55 → 2 totalling 2234.56; content (record or lines) changed',
    );
  });

  it('stays silent when the restatement went back to exactly the old version', async () => {
    await loadClean(t.connection);
    await restate();
    await t.connection.run(`UPDATE disbursement_history SET amount = amount + 1, payouts_sum = 223456, content_hash = 'hash-D-EU-1'`);
    expect(await runCheck(t.connection, 'restated')).toEqual([]);
  });
});

describe('missing_files', () => {
  it('warns for a disbursement without files when its recipient has files elsewhere', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-JP-2'), files: 0 }));
    const found = await runCheck(t.connection, 'missing_files');
    expect(found.map((r) => [r.severity, r.disbursement_id])).toEqual([['warning', 'D-JP-2']]);
  });

  it('does not flag a recipient whose portal has no files at all (MGA in the clean data)', async () => {
    await loadClean(t.connection);
    expect(await runCheck(t.connection, 'missing_files')).toEqual([]);
  });
});

describe('payment_cross_check', () => {
  it('payment-points-elsewhere: the payment names another disbursement and another amount', async () => {
    await loadClean(t.connection);
    await addSample(t.connection, {
      payment_id: 'pay-jp1-p2', disbursement_id: 'D-JP-1', payout_reference: 'jp1-p2',
      reported_disbursement_id: 'D-JP-2', payout_amount: 3600, payout_currency: 'JPY',
    });
    const found = await runCheck(t.connection, 'payment_cross_check');
    expect(brief(found)).toEqual([['error', 'D-JP-1', 'pay-jp1-p2', 3500n, 3600n]]);
    expect(found[0]?.detail).toBe(
      'payment pay-jp1-p2 (payout jp1-p2) sampled from this disbursement; the payment names disbursement D-JP-2;'
        + " the payment's payout is 3600 JPY but payout line 2 says 3500 JPY",
    );
  });

  it('flags a 404, a status outside guaranteed/delivered and a missing payouts entry', async () => {
    await loadClean(t.connection);
    await addSample(t.connection, { payment_id: 'pay-kw1-p1', disbursement_id: 'D-KW-1', http_status: 404, payout_found: null });
    await addSample(t.connection, {
      payment_id: 'pay-kw1-p2', disbursement_id: 'D-KW-1', payment_status: 'cancelled', payout_found: false,
    });
    const found = await runCheck(t.connection, 'payment_cross_check');
    expect(found.map((r) => [r.subject, r.detail]).sort()).toEqual([
      ['pay-kw1-p1', 'payment pay-kw1-p1 sampled from this disbursement; the payments service does not know this payment (HTTP 404)'],
      ['pay-kw1-p2', 'payment pay-kw1-p2 sampled from this disbursement; payment status is cancelled, not guaranteed or delivered;'
        + ' the payment lists no payout for this disbursement'],
    ]);
  });
});

describe('incomplete_disbursement', () => {
  it('reports an incomplete disbursement with the sync note', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-MG-2'), syncStatus: 'incomplete', syncNote: 'payouts page 3 kept failing (HTTP 503)' }));
    const found = await runCheck(t.connection, 'incomplete_disbursement');
    expect(found.map((r) => [r.severity, r.disbursement_id, r.detail])).toEqual([
      ['error', 'D-MG-2', 'disbursement could not be read completely, so it is not reconciled: payouts page 3 kept failing (HTTP 503)'],
    ]);
  });
});
