import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { parseMajor } from '../../../src/money.js';
import { ANOMALY_CHECKS, ANOMALY_KINDS, startSandbox, type AnomalyKind, type Sandbox } from '../../../sandbox/index.js';
import { get, getJson, identity, served, withSandbox, type Served } from './helpers.js';

// recipient = index mod 6: r0 EUR dat, r1 USD txt (netting), r2 JPY csv (netting), r3 KWD csv+dat
// (netting), r4 MGA csv, r5 VND no files
const PLANT: Record<AnomalyKind, number> = {
  total_off_by_one: 6,
  debit_as_credit: 7,
  count_payments_wrong: 8,
  count_refunds_wrong: 9,
  count_adjustments_wrong: 10,
  currency_mismatch: 12,
  duplicate_payout: 13,
  payout_missing_from_api: 14,
  payout_missing_from_file: 15,
  file_amount_differs: 16,
  bank_account_changed: 17,
  invalid_record: 18,
  restated: 19,
  missing_files: 20,
  unknown_entry_type: 21,
  payment_points_elsewhere: 22,
};

type Obj = Record<string, unknown>;

/** reference → amount of every line in every file of the disbursement (any layout). */
function fileAmounts(s: Served): Array<{ reference: string; amount: number }> {
  const out: Array<{ reference: string; amount: number }> = [];
  for (const f of s.files) {
    if (f.name.endsWith('.csv')) {
      for (const r of parse(f.body, { columns: true }) as Array<Record<string, string>>) out.push({ reference: r.reference ?? '', amount: Number(parseMajor(r.amount ?? '', r.currency ?? '')) });
    } else if (f.name.endsWith('.txt')) {
      for (const row of f.body.trimEnd().split('\n').slice(1)) {
        const [, reference = '', , amount = ''] = row.split('|');
        out.push({ reference, amount: Number(amount) });
      }
    } else {
      for (const row of f.body.trimEnd().split('\n').slice(1, -1)) {
        const [, , reference = '', , amount = ''] = row.split(';');
        out.push({ reference, amount: Number(amount) });
      }
    }
  }
  return out;
}

describe('sandbox anomalies', () => {
  let sb: Sandbox;
  const data = new Map<number, Served>();
  const at = (kind: AnomalyKind): Served => data.get(PLANT[kind]) as Served;
  const id = (index: number): string => sb.truth.disbursement(index).disbursement_id;

  beforeAll(async () => {
    sb = await startSandbox({
      seed: 31,
      disbursements: 30,
      anomalies: { plant: Object.entries(PLANT).map(([kind, index]) => ({ kind: kind as AnomalyKind, index })) },
    });
    for (let i = 0; i < 30; i += 1) data.set(i, await served(sb, id(i)));
  });
  afterAll(() => sb.close());

  it('lists every planted kind in truth.anomalies() with its checks', () => {
    const anomalies = sb.truth.anomalies();
    expect(anomalies.map((a) => a.kind).sort()).toEqual([...ANOMALY_KINDS].sort());
    for (const a of anomalies) {
      expect(a.index).toBe(PLANT[a.kind]);
      expect(a.disbursement_id).toBe(id(a.index));
      expect(a.checks).toEqual(ANOMALY_CHECKS[a.kind]);
      expect(a.subject).toEqual(expect.any(String));
      expect(sb.truth.disbursement(a.index).anomaly).toBe(a.kind);
    }
  });

  it('keeps every other disbursement clean', () => {
    const planted = new Set(Object.values(PLANT));
    for (const [i, s] of data) if (!planted.has(i)) expect(s.header.amount).toBe(identity(s));
  });

  it('total_off_by_one and debit_as_credit break the identity', () => {
    const off = at('total_off_by_one');
    expect((off.header.amount as number) - identity(off)).toBe(1);
    const dac = at('debit_as_credit');
    const debits = dac.adjustments.filter((a) => a.entry_type === 'debit').map((a) => 2 * (a.amount as number));
    expect(debits).toContain((dac.header.amount as number) - identity(dac));
  });

  it('count_*_wrong is off by one against the served lines', () => {
    const p = at('count_payments_wrong');
    expect(Math.abs((p.header.number_of_payments as number) - p.payouts.length)).toBe(1);
    const r = at('count_refunds_wrong');
    expect(Math.abs((r.header.number_of_refunds as number) - r.refunds.length)).toBe(1);
    const a = at('count_adjustments_wrong');
    expect(Math.abs((a.header.number_of_adjustments as number) - a.adjustments.length)).toBe(1);
  });

  it('currency_mismatch serves one payout in another currency', () => {
    const s = at('currency_mismatch');
    expect(s.payouts.filter((p) => p.currency !== s.header.currency)).toHaveLength(1);
  });

  it('duplicate_payout settles a payout of the previous disbursement again', async () => {
    const s = at('duplicate_payout');
    const earlier = data.get(PLANT.duplicate_payout - 6) as Served;
    const key = (p: Obj): string => `${p.payment_id as string}|${p.reference as string}`;
    const dups = s.payouts.filter((p) => earlier.payouts.some((q) => key(q) === key(p)));
    expect(dups).toHaveLength(1);
    expect(s.header.amount).toBe(identity(s));
    expect(s.header.number_of_payments).toBe(s.payouts.length);
    const payment = await getJson(sb, `/payments/v1/payments/${dups[0]?.payment_id as string}`);
    expect(payment.disbursement_id).toBe(earlier.header.disbursement_id);
  });

  it('payout_missing_from_api is in the files and the header but not in /payouts', () => {
    const s = at('payout_missing_from_api');
    const served = new Set(s.payouts.map((p) => p.reference));
    const missing = fileAmounts(s).filter((l) => l.reference.startsWith('PO-') && !served.has(l.reference));
    expect(missing).toHaveLength(1);
    expect(s.header.number_of_payments).toBe(s.payouts.length + 1);
    expect((s.header.amount as number) - identity(s)).toBe(missing[0]?.amount);
    expect(sb.truth.disbursement(PLANT.payout_missing_from_api).expected.payouts.count).toBe(s.payouts.length);
  });

  it('payout_missing_from_file is served by the API but absent from every file', () => {
    const s = at('payout_missing_from_file');
    expect(s.files).toHaveLength(2);
    for (const f of s.files) {
      const absent = s.payouts.filter((p) => !f.body.includes(p.reference as string));
      expect(absent).toHaveLength(1);
    }
    expect(s.header.amount).toBe(identity(s));
  });

  it('file_amount_differs changes one file line amount', () => {
    const s = at('file_amount_differs');
    const [csv] = s.files;
    const rows = parse(csv?.body ?? '', { columns: true }) as Array<Record<string, string>>;
    const differing = rows.filter((r) => {
      const p = s.payouts.find((x) => x.reference === r.reference);
      return p && Math.round(Number(r.amount) * 5) !== p.amount; // MGA: factor 5
    });
    expect(differing).toHaveLength(1);
  });

  it('bank_account_changed shows a new masked account from that disbursement on', () => {
    const before = data.get(PLANT.bank_account_changed - 6) as Served;
    const s = at('bank_account_changed');
    const after = data.get(PLANT.bank_account_changed + 6) as Served;
    expect(s.header.bank_account_number).not.toBe(before.header.bank_account_number);
    expect(after.header.bank_account_number).toBe(s.header.bank_account_number);
  });

  it('invalid_record serves one payout with a string amount or without reference, counted apart', () => {
    const s = at('invalid_record');
    const invalid = s.payouts.filter((p) => typeof p.amount !== 'number' || !('reference' in p));
    expect(invalid).toHaveLength(1);
    const truth = sb.truth.disbursement(PLANT.invalid_record).expected;
    expect(truth.invalid).toBe(1);
    expect(truth.payouts.count).toBe(s.payouts.length - 1);
  });

  it('restated changes the amount and one payout from generation 1 on', async () => {
    const index = PLANT.restated;
    const before = at('restated');
    const truthBefore = sb.truth.disbursement(index);
    const res = await fetch(`${sb.url}/__sandbox/generation`, { method: 'POST', body: JSON.stringify({ generation: 1 }) });
    expect(res.status).toBe(200);
    expect(sb.generation).toBe(1);
    try {
      const after = await served(sb, id(index));
      expect(after.header.amount).not.toBe(before.header.amount);
      expect(after.header.amount).toBe(identity(after));
      const changed = after.payouts.filter((p, k) => p.amount !== before.payouts[k]?.amount);
      expect(changed).toHaveLength(1);
      expect(sb.truth.disbursement(index).amount).toBe(after.header.amount);
      expect(sb.truth.disbursement(index).expected.payouts.sum).not.toBe(truthBefore.expected.payouts.sum);
      // other disbursements do not move
      expect((await served(sb, id(index - 1))).header).toEqual(data.get(index - 1)?.header);
    } finally {
      sb.setGeneration(0);
    }
  });

  it('missing_files answers /files with []', () => {
    expect(at('missing_files').files).toEqual([]);
    expect(sb.truth.disbursement(PLANT.missing_files).expected).toMatchObject({ files: 0, file_lines: 0 });
  });

  it('unknown_entry_type serves one adjustment with entry_type reversal', () => {
    const s = at('unknown_entry_type');
    expect(s.adjustments.filter((a) => a.entry_type === 'reversal')).toHaveLength(1);
    expect(s.header.number_of_adjustments).toBe(s.adjustments.length);
  });

  it('payment_points_elsewhere: one payment names another disbursement', async () => {
    const s = at('payment_points_elsewhere');
    const elsewhere = [];
    for (const p of s.payouts) {
      const payment = await getJson(sb, `/payments/v1/payments/${p.payment_id as string}`);
      if (payment.disbursement_id !== s.header.disbursement_id) elsewhere.push(payment);
    }
    expect(elsewhere).toHaveLength(1);
  });

  it('truth.expected matches what the API serves for every disbursement', () => {
    for (const [i, s] of data) {
      const e = sb.truth.disbursement(i).expected;
      const valid = s.payouts.filter((p) => typeof p.amount === 'number' && 'reference' in p);
      const sum = (xs: Obj[]): bigint => xs.reduce((t, x) => t + BigInt(x.amount as number), 0n);
      expect(e.payouts).toEqual({ count: valid.length, sum: sum(valid) });
      expect(e.refunds).toEqual({ count: s.refunds.length, sum: sum(s.refunds) });
      expect(e.adjustments).toEqual({
        count: s.adjustments.length,
        credit_sum: sum(s.adjustments.filter((a) => a.entry_type === 'credit')),
        debit_sum: sum(s.adjustments.filter((a) => a.entry_type === 'debit')),
        other_sum: sum(s.adjustments.filter((a) => a.entry_type !== 'credit' && a.entry_type !== 'debit')),
      });
      expect(e.files).toBe(s.files.length);
      expect(e.file_lines).toBe(fileAmounts(s).length);
    }
  });

  it('serves the truth and the anomalies over /__sandbox with sums as strings', async () => {
    const truth = JSON.parse((await get(sb, '/__sandbox/truth?per_page=5&page=2', null)).text) as {
      total_entries: number; disbursements: Array<{ index: number; expected: { payouts: { sum: string } } }>;
    };
    expect(truth.total_entries).toBe(30);
    expect(truth.disbursements.map((d) => d.index)).toEqual([5, 6, 7, 8, 9]);
    expect(truth.disbursements[0]?.expected.payouts.sum).toBe(String(sb.truth.disbursement(5).expected.payouts.sum));
    const anomalies = JSON.parse((await get(sb, '/__sandbox/anomalies', null)).text) as unknown[];
    expect(anomalies).toEqual(sb.truth.anomalies());
  });
});

describe('sandbox anomaly rate', () => {
  it('plants about rate × disbursements anomalies, only from the allowed kinds, never on the first recipients', async () => {
    await withSandbox({ seed: 12, disbursements: 600, anomalies: { rate: 0.2, kinds: ['total_off_by_one', 'count_refunds_wrong'] } }, async (sb) => {
      const anomalies = sb.truth.anomalies();
      expect(anomalies.length).toBeGreaterThan(80);
      expect(anomalies.length).toBeLessThan(160);
      expect(anomalies.every((a) => a.index >= 6)).toBe(true);
      const refunds = anomalies.filter((a) => a.kind === 'count_refunds_wrong');
      expect(refunds.length).toBeGreaterThan(0);
      // only netting recipients (r1, r2, r3)
      expect(refunds.every((a) => [1, 2, 3].includes(a.index % 6))).toBe(true);
    });
  });

  it('refuses to plant a kind where it cannot apply', async () => {
    await expect(startSandbox({ disbursements: 10, anomalies: { plant: [{ index: 2, kind: 'duplicate_payout' }] } })).rejects.toThrow(/duplicate_payout/);
    await expect(startSandbox({ disbursements: 10, anomalies: { plant: [{ index: 5, kind: 'missing_files' }] } })).rejects.toThrow(/no file layouts/);
  });
});
