// Anomalies (docs/sandbox.md, Anomalies): what each kind does to the served data (choose.ts says which
// disbursement gets which kind). The details depend only on (seed, index).
import type { Dataset } from './dataset.js';
import { ANOMALY_KINDS, type AnomalyKind } from './kinds.js';
import type { Model, ModelPayout } from './model-types.js';
import type { Resolved } from './options.js';
import type { Recipient } from './recipients.js';
import { rngFor, type Rng } from './rng.js';

const pickPayout = (m: Model, rng: Rng): ModelPayout => m.payouts[rng.int(0, m.payouts.length - 1)] as ModelPayout;

/** A change of 1–10 % (at least one subunit). */
const delta = (amount: number, rng: Rng): number => Math.max(1, Math.floor(amount * rng.float(0.01, 0.1)));

const offByOne = (count: number, rng: Rng): number => (count > 0 && rng.chance(0.5) ? count - 1 : count + 1);

export function applyAnomaly(ds: Dataset, m: Model, generation: number): void {
  const rng = rngFor(ds.seed, 'anomaly-detail', m.index);
  switch (m.anomaly) {
    case null:
      return;
    case 'total_off_by_one':
      m.amount += 1;
      m.subject = 'amount';
      return;
    case 'debit_as_credit': {
      const debit = m.adjustments.find((a) => a.entryType === 'debit');
      if (!debit) throw new Error(`debit_as_credit on ${m.id} without a debit adjustment`);
      m.amount += 2 * debit.amount;
      m.subject = debit.reference;
      return;
    }
    case 'count_payments_wrong':
      m.numberOfPayments = offByOne(m.numberOfPayments, rng);
      m.subject = 'number_of_payments';
      return;
    case 'count_refunds_wrong':
      m.numberOfRefunds = offByOne(m.numberOfRefunds, rng);
      m.subject = 'number_of_refunds';
      return;
    case 'count_adjustments_wrong':
      m.numberOfAdjustments = offByOne(m.numberOfAdjustments, rng);
      m.subject = 'number_of_adjustments';
      return;
    case 'currency_mismatch': {
      const p = pickPayout(m, rng);
      p.currency = rng.pick(['EUR', 'USD', 'GBP'].filter((c) => c !== m.currency));
      m.subject = p.reference;
      return;
    }
    case 'duplicate_payout': {
      const pred = ds.predecessor(m.index);
      if (pred === null) throw new Error(`duplicate_payout on ${m.id} without a predecessor`);
      const earlier = ds.basePayouts(pred);
      const original = earlier[rng.int(0, earlier.length - 1)] as (typeof earlier)[number];
      const copy: ModelPayout = {
        ...original,
        inApi: true,
        inFile: true,
        fileAmount: original.amount,
        invalid: null,
        detailsDisbursementId: ds.disbursementId(pred),
        duplicate: true,
      };
      m.payouts.splice(rng.int(0, m.payouts.length), 0, copy);
      m.amount += copy.amount;
      m.numberOfPayments += 1;
      m.subject = copy.reference;
      return;
    }
    case 'payout_missing_from_api': {
      const p = pickPayout(m, rng);
      p.inApi = false;
      m.subject = p.reference;
      return;
    }
    case 'payout_missing_from_file': {
      const p = pickPayout(m, rng);
      p.inFile = false;
      m.subject = p.reference;
      return;
    }
    case 'file_amount_differs': {
      const p = pickPayout(m, rng);
      const d = delta(p.amount, rng);
      p.fileAmount = rng.chance(0.5) || p.amount - d < 1 ? p.amount + d : p.amount - d;
      m.subject = p.reference;
      return;
    }
    case 'bank_account_changed':
      m.subject = m.account;
      return;
    case 'invalid_record': {
      const p = pickPayout(m, rng);
      p.invalid = rng.chance(0.5) ? 'string_amount' : 'no_reference';
      m.subject = p.paymentId;
      return;
    }
    case 'restated': {
      const p = pickPayout(m, rng);
      const d = delta(p.amount, rng);
      m.subject = p.reference;
      if (generation < 1) return;
      p.amount += d;
      p.fileAmount += d;
      m.amount += d;
      return;
    }
    case 'missing_files':
      m.files = [];
      m.subject = 'files';
      return;
    case 'unknown_entry_type': {
      const reference = `${ds.disbursementId(m.index).replace('dsb_', 'adj_')}-rv`;
      m.adjustments.push({
        reference,
        category: 'chargeback_fee',
        amount: Math.max(1, Math.floor((pickPayout(m, rng).amount * rng.float(0.005, 0.02)))),
        currency: m.currency,
        entryType: 'reversal',
        paymentId: pickPayout(m, rng).paymentId,
      });
      m.numberOfAdjustments += 1;
      m.subject = reference;
      return;
    }
    case 'payment_points_elsewhere': {
      const p = pickPayout(m, rng);
      const other = ds.predecessor(m.index) ?? (m.index === 0 ? 1 : m.index - 1);
      p.detailsDisbursementId = ds.disbursementId(other);
      m.subject = p.paymentId;
      return;
    }
  }
}
