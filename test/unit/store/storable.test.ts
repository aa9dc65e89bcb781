// Issue 26: a value one record carries that the store cannot hold (in any typed column of any line table,
// or of the disbursement record) quarantines that record with a plain reason; every other record of the
// same batch — the other lines of its disbursement, the other disbursements — is written.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/db.js';
import { StoreWriter } from '../../../src/store/writer.js';
import type { DisbursementBundle } from '../../../src/store/bundle.js';
import { testBundle as bundle } from '../../helpers/bundles.js';

let store: Store;
beforeEach(async () => {
  store = await openStore(':memory:');
});
afterEach(() => store.close());

const rows = async (sql: string) => (await store.connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];

// every typed column a record's value reaches: [table.column, how it is spoiled, the quarantined resource, the reason]
const CASES: Array<[string, (b: DisbursementBundle) => void, string, RegExp]> = [
  ['payouts.amount (a fraction)', (b) => ((b.payouts[1]!.value as { amount: number }).amount = 12.5), 'payout', /^amount: 12\.5 is not a whole number; not stored$/],
  ['payouts.amount (beyond BIGINT)', (b) => ((b.payouts[1]!.value as { amount: number }).amount = 2 ** 64), 'payout', /^amount: 18446744073709552000 is beyond/],
  ['payouts.line_no', (b) => (b.payouts[1]!.lineNo = 2 ** 31), 'payout', /^line number: 2147483648 is not a 32-bit whole number; not stored$/],
  ['refunds.amount', (b) => ((b.refunds[0]!.value as { amount: unknown }).amount = '12.50'), 'refund', /^amount: "12\.50" is not a whole number/],
  ['refunds.line_no', (b) => (b.refunds[0]!.lineNo = -(2 ** 40)), 'refund', /^line number: /],
  ['adjustments.amount', (b) => ((b.adjustments[0]!.value as { amount: number }).amount = Number.NaN), 'adjustment', /^amount: null is not a whole number/],
  ['adjustments.line_no', (b) => (b.adjustments[0]!.lineNo = 1.5), 'adjustment', /^line number: 1\.5 /],
  ['file_lines.amount', (b) => (b.files[0]!.lines[1]!.amount = 2n ** 63n), 'file', /^\w+\.dat: line 3: amount: 9223372036854775808 does not fit a 64-bit whole number; not stored$/],
  ['file_lines.line_no', (b) => (b.files[0]!.lines[1]!.lineNo = 2 ** 32), 'file', /line number: 4294967296 is not a 32-bit/],
  ['disbursement_files.footer_count', (b) => (b.files[0]!.footerCount = 10n ** 30n), 'file', /footer: 10{30} does not fit a 64-bit whole number; its count and total are not stored$/],
  ['disbursement_files.footer_total', (b) => (b.files[0]!.footerTotal = -(10n ** 20n)), 'file', /footer: -10{20} does not fit/],
  ['disbursement_files.size_bytes', (b) => (b.files[0]!.sizeBytes = 2 ** 80), 'file', /size|beyond the whole numbers stored exactly; the file is not stored$/],
  ['disbursement_files.file_no', (b) => (b.files[0]!.fileNo = 2 ** 33), 'file', /8589934592 is not a 32-bit whole number; the file is not stored$/],
];

// the disbursement record's own typed columns: the record is quarantined, its bundle not written
const RECORD_CASES: Array<[string, (b: DisbursementBundle) => void, RegExp]> = [
  ['disbursements.delivered_at (impossible)', (b) => (b.record.delivered_at = '2026-02-30T00:00:00Z'), /^delivered_at names a day that does not exist \(2026-02-30\)/],
  ['disbursements.delivered_at (US date)', (b) => (b.record.delivered_at = '10/05/2026'), /^delivered_at is not an ISO 8601 timestamp/],
  ['disbursements.amount', (b) => (b.record.amount = 0.5), /^amount: 0\.5 is not a whole number$/],
  ['disbursements.number_of_payments', (b) => (b.record.number_of_payments = 2 ** 70), /^number_of_payments: .* is beyond/],
  ['disbursements.number_of_refunds', (b) => (b.record.number_of_refunds = -1.25), /^number_of_refunds: /],
  ['disbursements.number_of_adjustments', (b) => ((b.record as { number_of_adjustments: unknown }).number_of_adjustments = '1'), /^number_of_adjustments: "1" is not/],
];

describe('a value the store cannot hold costs its own record, never the batch', () => {
  it('a failing value in every typed column of every line table: that line quarantined, everything else of the batch written', async () => {
    const writer = new StoreWriter(store.connection, 'run1', new Map(), { flushDisbursements: 1_000, flushIntervalMs: 1e9 });
    const spoiled = CASES.map(([, spoil], i) => bundle(`bad${i}`, spoil));
    for (const b of [bundle('good1'), ...spoiled, bundle('good2')]) await writer.add(b);
    await writer.flush();
    const stored = await rows(`SELECT disbursement_id, sync_status, sync_note FROM disbursements ORDER BY disbursement_id`);
    expect(stored.map((r) => r.disbursement_id).sort()).toEqual(['good1', 'good2', ...spoiled.map((b) => b.record.disbursement_id)].sort());
    for (const [i, [column, , resource, reason]] of CASES.entries()) {
      const id = `bad${i}`;
      const q = await rows(`SELECT resource, line_no, reason FROM quarantine WHERE disbursement_id = '${id}'`);
      expect(q, column).toHaveLength(1);
      expect(q[0]!.resource, column).toBe(resource);
      expect(String(q[0]!.reason), column).toMatch(reason);
      expect(stored.find((r) => r.disbursement_id === id), column).toMatchObject({ sync_status: 'invalid', sync_note: '1 record(s) quarantined' });
    }
    // the lines next to the spoiled one are all there
    const count = async (table: string, id: string) => Number((await rows(`SELECT count(*) AS n FROM ${table} WHERE disbursement_id = '${id}'`))[0]!.n);
    for (const id of ['good1', 'good2']) {
      expect([await count('payouts', id), await count('refunds', id), await count('adjustments', id), await count('file_lines', id), await count('disbursement_files', id)]).toEqual([2, 1, 1, 3, 1]);
      expect(await count('quarantine', id)).toBe(0);
    }
    expect(await count('payouts', 'bad0')).toBe(1);
    expect(await count('file_lines', 'bad7')).toBe(2);
    expect(await rows(`SELECT footer_count, footer_total FROM disbursement_files WHERE disbursement_id = 'bad9'`)).toEqual([{ footer_count: null, footer_total: null }]);
    expect(await count('disbursement_files', 'bad12')).toBe(0);
    expect(await count('file_lines', 'bad12')).toBe(0);
  });

  it('a disbursement record that cannot be stored is quarantined itself; the rest of its batch is written', async () => {
    const writer = new StoreWriter(store.connection, 'run1', new Map(), { flushDisbursements: 1_000, flushIntervalMs: 1e9 });
    for (const b of [bundle('good1'), ...RECORD_CASES.map(([, spoil], i) => bundle(`badrec${i}`, spoil)), bundle('good2')]) await writer.add(b);
    await writer.flush();
    expect((await rows('SELECT disbursement_id FROM disbursements ORDER BY 1')).map((r) => r.disbursement_id)).toEqual(['good1', 'good2']);
    expect(Number((await rows('SELECT count(*) AS n FROM payouts'))[0]!.n)).toBe(4);
    for (const [i, [column, , reason]] of RECORD_CASES.entries()) {
      const q = await rows(`SELECT resource, reason, raw FROM quarantine WHERE disbursement_id = 'badrec${i}'`);
      expect(q, column).toHaveLength(1);
      expect(q[0]!.resource, column).toBe('disbursement');
      expect(String(q[0]!.reason), column).toMatch(reason);
    }
    expect(writer.counts.quarantined).toBe(RECORD_CASES.length);
  });

  it('delivered_at is written as the UTC instant it names, in every allowed form', async () => {
    const writer = new StoreWriter(store.connection, 'run1', new Map(), { flushDisbursements: 1_000, flushIntervalMs: 1e9 });
    const forms = ['2026-10-31T23:30Z', '2026-10-31T23:30:00z', '2026-11-01T01:30:00+02:00', '2026-10-31T19:30:00-0400', '2026-10-31T23:30:00', '2026-10-31T23:30:00.000000001Z'];
    for (const [i, at] of forms.entries()) await writer.add(bundle(`t${i}`, (b) => (b.record.delivered_at = at)));
    await writer.flush();
    await store.connection.run(`SET TimeZone = 'America/New_York'`);
    const got = await rows(`SELECT disbursement_id, epoch_ms(delivered_at) AS ms, month_of(delivered_at) AS month FROM disbursements ORDER BY 1`);
    expect(got.map((r) => [Number(r.ms), r.month])).toEqual(forms.map(() => [Date.UTC(2026, 9, 31, 23, 30), '2026-10']));
  });
});
