// The lines' common shape checked without zod (src/api/schemas.ts plainPayout, plainRefund,
// plainAdjustment): a line accepted there must be one the schema accepts, with the same typed fields;
// anything else goes to the schema, which decides. Records are the service's usual ones, mutated at random.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AdjustmentSchema, PayoutSchema, RefundSchema, plainAdjustment, plainPayout, plainRefund,
} from '../../../src/api/schemas.js';
import { parseJsonExact } from '../../../src/api/json.js';
import { testRandom } from '../../helpers/seed.js';

const PAYOUT = {
  status: 'paid', currency: 'USD', batch_ref: 'BATCH-EEF728AF', reference: 'PO-788F0000J-001',
  payment_id: 'pay_788f0000j-0', amount: 5274, recipient_id: 'rcp_328c3632a31',
  _links: { self: { href: '/payments/v1/payments/pay_788f0000j-0' } }, created_at: '2026-10-30T01:36:26Z',
};
const REFUND = {
  amount: 7301, currency: 'USD', batch_ref: 'BATCH-2F908E4D', created_at: '2026-10-28T21:14:14Z',
  payment: { external_reference: 'ORD-483207', id: 'pay_788f0000d-26' }, refund_id: 'rfd_788f0000j-0',
  status: 'finished',
};
const ADJUSTMENT = {
  entity: 'payment', reference: 'adj_788f0000j-0', currency: 'USD', description: 'service debit', entry_type: 'debit',
  entity_reference: 'pay_788f0000j-15', category: 'service', amount: 99, batch_ref: 'BATCH-8CAB9EFF',
};

// values a field may come as: right, wrong, missing, of another type, numbers a double does not hold
const ODD = [undefined, null, '', 'x', 'usd', 'EUR', 'EURO', 'ÉUR', 0, -0, -1, 1.5, 2 ** 53, 2 ** 53 + 2, 1e300, true,
  [], {},
  { id: 'p' }, { id: '' }, { id: 'p', external_reference: 7 }, { id: 'p', external_reference: null }, '12.50'];

function mutate(base: Record<string, unknown>, next: () => number): unknown {
  const record: Record<string, unknown> = structuredClone(base);
  const keys = [...Object.keys(base), 'payment', 'status', 'category', 'entity', 'entity_reference'];
  for (let n = Math.floor(next() * 3); n > 0; n -= 1) {
    const key = keys[Math.floor(next() * keys.length)]!;
    const value = ODD[Math.floor(next() * ODD.length)];
    if (value === undefined) delete record[key];
    else record[key] = structuredClone(value);
  }
  // through the service's JSON reader, as a line arrives (a number past 2^53 becomes an InexactNumber)
  const text = JSON.stringify(record).replace('"amount":9007199254740994', '"amount":9007199254740993');
  return next() < 0.05 ? JSON.parse(`[${text}]`) : parseJsonExact(text);
}

function agrees<S extends z.ZodType>(schema: S, plain: (x: unknown) => unknown, base: Record<string, unknown>,
  fields: Array<(v: z.infer<S>) => unknown>, name: string): number {
  const { next } = testRandom(name);
  let accepted = 0;
  for (let i = 0; i < 4000; i += 1) {
    const item = mutate(base, next);
    const fast = plain(item);
    if (fast === null) continue;
    accepted += 1;
    const parsed = schema.safeParse(item);
    expect(parsed.success, JSON.stringify(item)).toBe(true);
    for (const field of fields) expect(field(fast as z.infer<S>) ?? null).toEqual(field(parsed.data!) ?? null);
  }
  return accepted;
}

describe('the common shape of a line, checked without zod', () => {
  it('accepts the service\'s usual lines', () => {
    expect(plainPayout(PAYOUT)).not.toBeNull();
    expect(plainRefund(REFUND)).not.toBeNull();
    expect(plainAdjustment(ADJUSTMENT)).not.toBeNull();
  });

  it('payouts: what it accepts the schema accepts, with the same fields', () => {
    const accepted = agrees(PayoutSchema, plainPayout, PAYOUT, [
      (v) => v.recipient_id, (v) => v.reference, (v) => v.status, (v) => v.payment_id, (v) => v.currency,
      (v) => v.amount,
    ], 'line-shapes-payout');
    expect(accepted).toBeGreaterThan(500);
  });

  it('refunds: what it accepts the schema accepts, with the same fields', () => {
    const accepted = agrees(RefundSchema, plainRefund, REFUND, [
      (v) => v.refund_id, (v) => v.payment.id, (v) => v.payment.external_reference, (v) => v.currency, (v) => v.amount,
    ], 'line-shapes-refund');
    expect(accepted).toBeGreaterThan(500);
  });

  it('adjustments: what it accepts the schema accepts, with the same fields', () => {
    const accepted = agrees(AdjustmentSchema, plainAdjustment, ADJUSTMENT, [
      (v) => v.reference, (v) => v.category, (v) => v.entry_type, (v) => v.entity, (v) => v.entity_reference,
      (v) => v.currency, (v) => v.amount,
    ], 'line-shapes-adjustment');
    expect(accepted).toBeGreaterThan(500);
  });

  it('leaves to the schema a line it does not plainly accept', () => {
    expect(plainPayout({ ...PAYOUT, amount: -1 })).toBeNull();
    expect(plainPayout({ ...PAYOUT, amount: 12.5 })).toBeNull();
    expect(plainPayout({ ...PAYOUT, currency: 'usd' })).toBeNull();
    expect(plainPayout({ ...PAYOUT, reference: '' })).toBeNull();
    expect(plainRefund({ ...REFUND, payment: null })).toBeNull();
    expect(plainAdjustment({ ...ADJUSTMENT, entry_type: '' })).toBeNull();
    expect(plainPayout(parseJsonExact(JSON.stringify(PAYOUT).replace('5274', '9007199254740993')))).toBeNull();
  });
});
