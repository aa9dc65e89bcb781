// The served view of one disbursement at a generation: its lines, what the API shows, what the files
// show, and the header. Built from the base lines, then the disbursement's anomaly (if any) is applied.
import { applyAnomaly } from './anomalies.js';
import type { BaseAdjustment, BasePayout, BaseRefund, Dataset } from './dataset.js';
import { maskedAccount } from './recipients.js';
import type { Model, ModelPayout } from './model-types.js';

export type { InvalidMode, Model, ModelPayout } from './model-types.js';

function signedAdjustment(a: BaseAdjustment): number {
  return a.entryType === 'credit' ? a.amount : a.entryType === 'debit' ? -a.amount : 0;
}

export function buildModel(ds: Dataset, index: number, generation: number): Model {
  const recipient = ds.recipientOf(index);
  const id = ds.disbursementId(index);
  const base = ds.basePayouts(index);
  const refunds = ds.baseRefunds(index, base);
  const adjustments = ds.baseAdjustments(index, base);
  const payouts: ModelPayout[] = base.map((p) => ({
    ...p,
    inApi: true,
    inFile: true,
    fileAmount: p.amount,
    invalid: null,
    detailsDisbursementId: id,
    duplicate: false,
  }));
  const gross = payouts.reduce((s, p) => s + p.amount, 0);
  const model: Model = {
    index,
    id,
    recipient,
    deliveredAtMs: ds.deliveredAt[index] ?? 0,
    currency: recipient.currency,
    account: maskedAccount(ds.seed, recipient.index, ds.accountVersion[index] ?? 0),
    payouts,
    refunds,
    adjustments,
    amount:
      gross - refunds.reduce((s, r) => s + r.amount, 0) + adjustments.reduce((s, a) => s + signedAdjustment(a), 0),
    numberOfPayments: payouts.length,
    numberOfRefunds: refunds.length,
    numberOfAdjustments: adjustments.length,
    files: [...recipient.layouts],
    anomaly: ds.anomalyOf(index),
    subject: null,
  };
  if (model.anomaly) applyAnomaly(ds, model, generation);
  return model;
}

/** A tiny LRU of built models: list pages and children of one disbursement hit the same few. */
export class ModelCache {
  private readonly map = new Map<string, Model>();

  constructor(private readonly ds: Dataset, private readonly size = 32) {}

  get(index: number, generation: number): Model {
    const key = `${generation}:${index}`;
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const model = buildModel(this.ds, index, generation);
    this.map.set(key, model);
    if (this.map.size > this.size) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
    return model;
  }

  clear(): void {
    this.map.clear();
  }
}
