// JSON shapes of the interface's Disbursement sections. Every object's key order is shuffled per record
// (deterministically) and carries fields unknown to clients, because the interface says parameters can
// appear in any order and be added without a new version.
import { formatMajor } from './money.js';
import type { BaseAdjustment, BaseRefund, Dataset } from './dataset.js';
import type { Model, ModelPayout } from './model.js';
import { rngFor, type Rng } from './rng.js';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The object with its keys in an order chosen by `rng`. */
function shuffled(rng: Rng, fields: Array<[string, Json]>): JsonObject {
  return Object.fromEntries(rng.shuffle(fields)) as JsonObject;
}

function extras(rng: Rng, createdBeforeMs: number, self: string): Array<[string, Json]> {
  return [
    ['created_at', iso(Math.floor(createdBeforeMs / 1000 - rng.int(60, 86_400 * 3)) * 1000)],
    ['batch_ref', `BATCH-${rng.hex(8).toUpperCase()}`],
    ['_links', { self: { href: self } }],
  ];
}

const base = '/payments/v1';

export function disbursementJson(seed: string, m: Model): JsonObject {
  const rng = rngFor(seed, 'order', m.id);
  return shuffled(rng, [
    ['disbursement_id', m.id],
    ['recipient_id', m.recipient.id],
    ['status', 'delivered'],
    ['delivered_at', iso(m.deliveredAtMs)],
    ['number_of_payments', m.numberOfPayments],
    ['number_of_refunds', m.numberOfRefunds],
    ['number_of_adjustments', m.numberOfAdjustments],
    ['amount', m.amount],
    ['currency', m.currency],
    ['bank_account_number', m.account],
    ...extras(rng, m.deliveredAtMs, `${base}/disbursements/${m.id}`),
  ]);
}

export function payoutJson(seed: string, m: Model, p: ModelPayout): JsonObject {
  const rng = rngFor(seed, 'order', `${m.id}:${p.paymentId}:${p.duplicate ? 'dup' : ''}`);
  const fields: Array<[string, Json]> = [
    ['recipient_id', m.recipient.id],
    ['status', 'paid'],
    ['payment_id', p.paymentId],
    ['currency', p.currency],
    // invalid_record: an amount as a major-unit string instead of integer subunits
    ['amount', p.invalid === 'string_amount' ? formatMajor(p.amount, p.currency) : p.amount],
    ...extras(rng, m.deliveredAtMs, `${base}/payments/${p.paymentId}`),
  ];
  if (p.invalid !== 'no_reference') fields.push(['reference', p.reference]);
  return shuffled(rng, fields);
}

export function refundJson(seed: string, m: Model, r: BaseRefund): JsonObject {
  const rng = rngFor(seed, 'order', r.refundId);
  return shuffled(rng, [
    ['refund_id', r.refundId],
    ['payment', shuffled(rng, [['id', r.paymentId], ['external_reference', r.externalReference]])],
    ['amount', r.amount],
    ['currency', r.currency],
    ['status', 'finished'],
    ...extras(rng, m.deliveredAtMs, `${base}/payments/${r.paymentId}`),
  ]);
}

export function adjustmentJson(seed: string, m: Model, a: BaseAdjustment): JsonObject {
  const rng = rngFor(seed, 'order', a.reference);
  return shuffled(rng, [
    ['reference', a.reference],
    ['category', a.category],
    ['amount', a.amount],
    ['currency', a.currency],
    ['entry_type', a.entryType],
    ['entity', 'payment'],
    ['entity_reference', a.paymentId],
    ['description', `${a.category.replace(/_/g, ' ')} ${a.entryType}`],
    ...extras(rng, m.deliveredAtMs, `${base}/disbursements/${m.id}/adjustments`),
  ]);
}

export function envelopeJson(
  seed: string,
  name: string,
  page: { total: number; page: number; perPage: number },
  items: Json[],
): JsonObject {
  const rng = rngFor(seed, 'order', `envelope:${name}:${page.page}:${page.perPage}`);
  return shuffled(rng, [
    ['total_entries', page.total],
    ['total_pages', Math.ceil(page.total / page.perPage)],
    ['page', page.page],
    ['per_page', page.perPage],
    [name, items],
  ]);
}

/** Payment details (interface: Payment (details)) of one payout's payment. */
export function paymentJson(ds: Dataset, m: Model, p: ModelPayout): JsonObject {
  const seed = ds.seed;
  const rng = rngFor(seed, 'payment', p.paymentId);
  const from = p.fx ?? { currency: p.currency, amount: p.amount };
  const createdMs = p.deliveredAtMs - rng.int(2, 20) * 86_400_000;
  const guaranteedMs = createdMs + rng.int(60, 86_400) * 1000;
  const payer: Array<[string, Json]> = [
    ['country', rng.pick(['DE', 'US', 'FR', 'GB', 'JP', 'ES'])],
    ['state', rng.pick(['', 'CA', 'NY', 'BY'])],
    ['email', `payer${rng.int(1000, 99999)}@example.com`],
    ['first_name', rng.pick(['Ana', 'Ben', 'Chloé', 'Dai', 'Eun'])],
  ];
  const payout: Array<[string, Json]> = [
    ['recipient_id', m.recipient.id],
    ['reference', p.reference],
    ['disbursement_id', p.detailsDisbursementId],
    ['status', 'paid'],
    ['amount', p.amount],
    ['currency', p.currency],
  ];
  return shuffled(rng, [
    ['payment_id', p.paymentId],
    ['created_at', iso(createdMs)],
    ['expiration_date', iso(createdMs + 30 * 86_400_000)],
    ['status', 'delivered'],
    ['status_detail', 'settled'],
    ['amount_from', from.amount],
    ['currency_from', from.currency],
    ['amount_to', p.amount],
    ['currency_to', p.currency],
    ['external_reference', rng.chance(0.8) ? `INV-${rng.int(10000, 999999)}` : null],
    ['disbursement_id', p.detailsDisbursementId],
    [
      'status_transitions',
      shuffled(rng, [
        ['guaranteed_at', iso(guaranteedMs)],
        ['delivered_at', iso(p.deliveredAtMs)],
        ['cancelled_at', null],
        ['authorized_at', iso(createdMs + 30_000)],
      ]),
    ],
    ['payor_id', `payor-${rng.hex(8)}`],
    ['adjustments', []],
    ['payer', shuffled(rng, payer)],
    ['recipient', { id: m.recipient.id, fields: [] }],
    ['items', [{ id: 'item-1', amount: from.amount }]],
    [
      'charge_intent',
      { initiator: 'payer', mode: 'one_off', mandate_id: null, payor_id: null, payment_method_token: null },
    ],
    [
      'payment_method_details',
      { type: 'card', name: 'Visa', brand: 'visa', status: 'captured', last_four_digits: String(rng.int(1000, 9999)) },
    ],
    ['notifications_url', 'https://client.example.com/notifications'],
    ['payouts', [shuffled(rng, payout)]],
    ['metadata', { tracking_url: `https://track.example.com/${p.paymentId}` }],
    ['_links', { self: { href: `${base}/payments/${p.paymentId}` } }],
  ]);
}
