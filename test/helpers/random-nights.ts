// Random nights for comparing incremental checks with full ones (test/unit/checks/incremental.test.ts): a
// night is a plan — plain data drawn from a seeded stream — that is then written the same way into any
// number of stores, through recon's own writers (StoreWriter, saveSamples, the quarantine's and the
// close's) where recon has them, and by SQL where no command writes (bank credits, a disbursement removed).
import type { DuckDBConnection } from '@duckdb/node-api';
import { contentHash, type DisbursementBundle, type FileResult } from '../../src/store/bundle.js';
import { StoreWriter, loadStoredState } from '../../src/store/writer.js';
import { saveSamples, type PaymentSample } from '../../src/store/samples.js';
import { quarantinePage, quarantineRecord } from '../../src/store/quarantine.js';
import { closedVersion, recordClose } from '../../src/store/closes.js';
import { startRun } from '../../src/store/runs.js';
import { closeEntry } from '../../src/close/controls.js';

type Draw = () => number;

export interface NightPlan {
  runId: string;
  at: string;
  bundles: DisbursementBundle[];
  samples: PaymentSample[];
  quarantined: string[];
  page: boolean;
  close: string | null;
  credits: Array<{ ref: string; day: string; amount: number; currency: string; remittance: string }>;
  removed: string[];
}

/** What the nights so far have written, to draw the next night's from. */
export interface History {
  ids: string[];
  payouts: Array<{ id: string; paymentId: string; reference: string; amount: number; currency: string }>;
  keys: { payout: string[]; refund: string[]; adjustment: string[] };
  amounts: Map<string, { amount: number; currency: string; day: string }>;
}

export const emptyHistory = (): History => ({
  ids: [], payouts: [], keys: { payout: [], refund: [], adjustment: [] }, amounts: new Map(),
});

const CURRENCIES = ['EUR', 'JPY', 'KWD'];
const DAY = 86_400_000;
const START = Date.parse('2026-03-02T00:00:00Z');

const chance = (draw: Draw, p: number) => draw() < p;
const int = (draw: Draw, lo: number, hi: number) => lo + Math.floor(draw() * (hi - lo + 1));
const pick = <T>(draw: Draw, xs: readonly T[]): T => xs[Math.floor(draw() * xs.length)]!;

/** A disbursement as the sync hands it over, with its quirks drawn: repeats, misfits, files that disagree. */
function drawBundle(draw: Draw, h: History, id: string, at: number, night: number): DisbursementBundle {
  const r = int(draw, 1, 3);
  const currency = CURRENCIES[r - 1]!;
  const key = (pool: string[], fresh: string) => (pool.length > 0 && chance(draw, 0.2) ? pick(draw, pool) : fresh);
  const ccy = () => (chance(draw, 0.05) ? 'USD' : currency);
  const line = <T>(lineNo: number, value: T) => ({ lineNo, value, raw: JSON.stringify(value) });
  const payouts = Array.from({ length: int(draw, 1, 3) }, (_, n) => line(n + 1, {
    recipient_id: `r${r}`, reference: `${id}-p${n}`, status: 'paid',
    payment_id: key(h.keys.payout, `pay-${id}-${n}`), currency: ccy(), amount: int(draw, 100, 5000),
  }));
  const refunds = Array.from({ length: int(draw, 0, 2) }, (_, n) => line(n + 1, {
    refund_id: key(h.keys.refund, `ref-${id}-${n}`),
    payment: { id: `pay-${id}-0`, external_reference: null }, amount: int(draw, 10, 90), currency: ccy(),
  }));
  const adjustments = Array.from({ length: int(draw, 0, 2) }, (_, n) => line(n + 1, {
    reference: key(h.keys.adjustment, `adj-${id}-${n}`), category: 'fee', amount: int(draw, 5, 50), currency: ccy(),
    entry_type: chance(draw, 0.05) ? 'bogus' : pick(draw, ['credit', 'debit']), entity: null, entity_reference: null,
  }));
  const signed = (a: (typeof adjustments)[number]['value']) =>
    (a.entry_type === 'credit' ? a.amount : a.entry_type === 'debit' ? -a.amount : 0);
  const sum = payouts.reduce((s, p) => s + p.value.amount, 0) - refunds.reduce((s, x) => s + x.value.amount, 0)
    + adjustments.reduce((s, a) => s + signed(a.value), 0);
  const amount = sum + (chance(draw, 0.1) ? 7 : 0);
  const misfit = { resource: 'payout' as const, lineNo: payouts.length + 1, reason: 'amount is not a number' };
  const quarantine = chance(draw, 0.08) ? [{ ...misfit, raw: '{"amount":"x"}' }] : [];
  const syncStatus = quarantine.length ? 'invalid' : chance(draw, 0.04) ? 'incomplete' : 'complete';
  const fileLines = [
    ...payouts.map((p) => ({
      kind: 'payout' as const, entryType: null, reference: p.value.reference, paymentId: p.value.payment_id, v: p.value,
    })),
    ...refunds.map((x) => ({
      kind: 'refund' as const, entryType: null, reference: x.value.refund_id, paymentId: null, v: x.value,
    })),
    ...adjustments.map((a) => ({
      kind: 'adjustment' as const, entryType: a.value.entry_type as 'credit' | 'debit', reference: a.value.reference,
      paymentId: null, v: a.value,
    })),
  ]
    .filter(() => !chance(draw, 0.05))
    .map((l, i) => ({
      lineNo: i + 2, kind: l.kind, entryType: l.entryType, reference: l.reference, paymentId: l.paymentId,
      currency: l.v.currency, amount: BigInt(l.v.amount + (chance(draw, 0.08) ? 3 : 0)),
      raw: `${l.kind};${l.reference}`,
    }));
  if (chance(draw, 0.05)) {
    fileLines.push({
      lineNo: fileLines.length + 2, kind: 'payout', entryType: null, reference: `${id}-extra`, paymentId: null,
      currency, amount: 11n, raw: 'extra',
    });
  }
  const fileCount = () => (chance(draw, 0.15) ? 0 : int(draw, 1, 2));
  const files: FileResult[] = r === 3 && !chance(draw, 0.2) ? [] : Array.from({ length: fileCount() }, (_, f) => {
    const status = chance(draw, 0.9) ? 'parsed' : pick(draw, ['unparseable', 'download_failed'] as const);
    const parsed = status === 'parsed';
    const lines = parsed ? fileLines : [];
    return {
      fileNo: f + 1, name: `${id}-${f}.dat`, extension: 'dat', sha256: null, sizeBytes: 100, layout: 'dat',
      parseStatus: status, parseError: parsed ? null : 'broken', lines,
      footerCount: parsed ? BigInt(lines.length + (chance(draw, 0.05) ? 1 : 0)) : null,
      footerTotal: parsed ? BigInt(amount + (chance(draw, 0.05) ? 2 : 0)) : null, problems: [],
    };
  });
  const record = {
    disbursement_id: id, recipient_id: `r${r}`, status: 'delivered', delivered_at: new Date(at).toISOString(),
    number_of_payments: payouts.length + quarantine.length + (chance(draw, 0.05) ? 1 : 0),
    number_of_refunds: refunds.length, number_of_adjustments: adjustments.length, amount, currency,
    bank_account_number: chance(draw, 0.1) ? `****20${night % 10}${r}` : `****100${r}`,
  };
  const syncNote = syncStatus === 'incomplete' ? 'payouts page 2 failed' : null;
  const b = { record, payouts, refunds, adjustments, files, quarantine, syncStatus, syncNote };
  const bundle = { ...b, raw: JSON.stringify(record) } as unknown as DisbursementBundle;
  bundle.contentHash = contentHash(bundle);
  return bundle;
}

/** Night `k`'s plan: new disbursements, restatements, samples, quarantine, maybe a close, credits, a removal. */
export function drawNight(draw: Draw, h: History, k: number): NightPlan {
  const day = START + k * 3 * DAY;
  const runId = `night-${String(k).padStart(3, '0')}`;
  const bundles: DisbursementBundle[] = [];
  const arrivals = int(draw, 2, 5);
  for (let n = 0; n < arrivals; n += 1) {
    const late = chance(draw, 0.1) ? 31 * DAY : 0;
    bundles.push(drawBundle(draw, h, `d${k}-${n}`, day - late + int(draw, 0, 20) * 3_600_000, k));
  }
  const restated = int(draw, 0, 2);
  for (let n = 0; n < restated && h.ids.length > 0; n += 1) {
    const id = pick(draw, h.ids);
    if (bundles.some((b) => b.record.disbursement_id === id)) continue;
    const was = h.amounts.get(id)!;
    bundles.push(drawBundle(draw, h, id, chance(draw, 0.2) ? day : Date.parse(was.day), k));
  }
  const samples: PaymentSample[] = [];
  const sampled = int(draw, 0, 3);
  for (let n = 0; n < sampled && h.payouts.length > 0; n += 1) {
    const p = pick(draw, h.payouts);
    if (samples.some((s) => s.paymentId === p.paymentId && s.disbursementId === p.id)) continue;
    const status = chance(draw, 0.1) ? 404 : 200;
    samples.push({
      paymentId: p.paymentId, disbursementId: p.id, payoutReference: p.reference, httpStatus: status,
      paymentStatus: status === 200 ? 'delivered' : null, reportedDisbursementId: p.id, payoutFound: status === 200,
      payoutAmount: BigInt(p.amount + (chance(draw, 0.2) ? 1 : 0)), payoutCurrency: p.currency, raw: null,
    });
  }
  const old = (p: number) => (h.ids.length > 0 && chance(draw, p) ? [pick(draw, h.ids)] : []);
  const closeMonth = chance(draw, 0.25) ? new Date(day - int(draw, 20, 50) * DAY).toISOString().slice(0, 7) : null;
  const credits = chance(draw, 0.3) ? [...h.amounts.entries()].filter(() => chance(draw, 0.3)).map(([id, a], n) => ({
    ref: `${runId}-c${n}`, day: a.day.slice(0, 10), amount: a.amount + (chance(draw, 0.2) ? 5 : 0),
    currency: a.currency, remittance: `SETTLEMENT ${id}`,
  })) : [];
  const plan = {
    runId, at: new Date(day + 3 * 3_600_000).toISOString(), bundles, samples, quarantined: old(0.1),
    page: chance(draw, 0.1), close: closeMonth, credits, removed: old(0.05),
  };
  remember(h, plan);
  return plan;
}

/** What the plan leaves in the store, for the nights after. */
function remember(h: History, plan: NightPlan): void {
  for (const b of plan.bundles) {
    const id = b.record.disbursement_id;
    if (!h.ids.includes(id)) h.ids.push(id);
    h.amounts.set(id, { amount: b.record.amount, currency: b.record.currency, day: b.record.delivered_at });
    for (const p of b.payouts) {
      const { payment_id: paymentId, reference, amount, currency } = p.value;
      h.payouts.push({ id, paymentId, reference, amount, currency });
      h.keys.payout.push(p.value.payment_id);
    }
    for (const x of b.refunds) h.keys.refund.push(x.value.refund_id);
    for (const a of b.adjustments) h.keys.adjustment.push(a.value.reference);
  }
  for (const id of plan.removed) {
    h.ids = h.ids.filter((x) => x !== id);
    h.amounts.delete(id);
    h.payouts = h.payouts.filter((p) => p.id !== id);
  }
}

/** The tables a disbursement has rows in, for a removal (no command removes one; this is the worst case). */
const TABLES = [
  'payouts', 'refunds', 'adjustments', 'disbursement_files', 'file_lines', 'quarantine', 'payment_samples',
  'disbursement_history', 'disbursements',
];

/** Writes the plan into a store as the night's run would. */
export async function writeNight(c: DuckDBConnection, plan: NightPlan): Promise<void> {
  await startRun(c, { runId: plan.runId, command: 'run', serviceUrl: null, options: {}, startedAt: new Date(plan.at) });
  const writer = new StoreWriter(c, plan.runId, await loadStoredState(c));
  for (const b of structuredClone(plan.bundles)) await writer.add(b);
  await writer.flush();
  await saveSamples(c, plan.runId, plan.samples);
  for (const id of plan.quarantined) {
    await quarantineRecord(c, plan.runId, { disbursement_id: id }, 'amount is not a number', '{}', (t) => t);
  }
  if (plan.page) await quarantinePage(c, plan.runId, 'the list ended before its announced size');
  if (plan.close) {
    const version = (await closedVersion(c, plan.close)) + 1;
    const at = new Date(plan.at);
    const closed = await closeEntry(c, { month: plan.close, version, closedAt: at, runId: plan.runId,
      workbook: 'close.xlsx', closer: { by: 'night', osUser: null, host: null }, acceptance: null });
    await recordClose(c, { row: closed.row, entries: [closed.entry] });
  }
  for (const x of plan.credits) {
    await c.run(`INSERT INTO bank_transactions (statement_id, entry_ref, format, account, account_tail, booking_date, value_date, amount, currency,
        direction, end_to_end_id, remittance, counterparty, raw, file_name, run_id, imported_at)
      VALUES ('s1', $1, 'csv', '****1001', '1001', CAST($2 AS DATE), CAST($2 AS DATE), $3, $4, 'credit', NULL, $5, 'PAYMENTS SERVICE BV', NULL, 'f.csv', $6, now())`,
    [x.ref, x.day, x.amount, x.currency, x.remittance, plan.runId]);
  }
  for (const id of plan.removed) {
    for (const t of TABLES) await c.run(`DELETE FROM ${t} WHERE disbursement_id = $1`, [id]);
  }
}
