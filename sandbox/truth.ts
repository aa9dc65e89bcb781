// Ground truth (docs/sandbox.md, Ground truth): what the API serves now, per disbursement, and every
// planted anomaly with the checks expected to find it. Sums are bigint: they can outgrow 2^53.
import type { Dataset } from './dataset.js';
import { fileLines } from './files.js';
import { ANOMALY_CHECKS, type AnomalyKind } from './kinds.js';
import { buildModel, type Model } from './model.js';
import { iso } from './resources.js';

export interface Expected {
  payouts: { count: number; sum: bigint };
  refunds: { count: number; sum: bigint };
  adjustments: { count: number; credit_sum: bigint; debit_sum: bigint; other_sum: bigint };
  /** Files listed by /files and their detail lines (all files together). */
  files: number;
  file_lines: number;
  /** Served records that are invalid (string amount, missing reference): not in the counts and sums above. */
  invalid: number;
}

export interface TruthDisbursement {
  index: number;
  disbursement_id: string;
  recipient_id: string;
  currency: string;
  delivered_at: string;
  amount: number;
  /** As the service shows it: masked, the last four digits visible. */
  bank_account_number: string;
  anomaly: AnomalyKind | null;
  /** False while appearWhilePaging still hides it from the list (and from GET by id). */
  visible: boolean;
  expected: Expected;
}

export interface TruthAnomaly {
  kind: AnomalyKind;
  index: number;
  disbursement_id: string;
  subject: string | null;
  checks: string[];
}

export interface TruthSource {
  ds: Dataset;
  generation(): number;
  /** Number of visible disbursements: indexes 0 … visibleCount − 1. */
  visibleCount(): number;
}

function expectedOf(m: Model): Expected {
  const e: Expected = {
    payouts: { count: 0, sum: 0n },
    refunds: { count: m.refunds.length, sum: 0n },
    adjustments: { count: m.adjustments.length, credit_sum: 0n, debit_sum: 0n, other_sum: 0n },
    files: m.files.length,
    file_lines: m.files.length * fileLines(m).length,
    invalid: 0,
  };
  for (const p of m.payouts) {
    if (!p.inApi) continue;
    if (p.invalid) {
      e.invalid += 1;
      continue;
    }
    e.payouts.count += 1;
    e.payouts.sum += BigInt(p.amount);
  }
  for (const r of m.refunds) e.refunds.sum += BigInt(r.amount);
  for (const a of m.adjustments) {
    const key = a.entryType === 'credit' ? 'credit_sum' : a.entryType === 'debit' ? 'debit_sum' : 'other_sum';
    e.adjustments[key] += BigInt(a.amount);
  }
  return e;
}

export class Truth {
  constructor(private readonly src: TruthSource) {}

  get disbursementCount(): number {
    return this.src.ds.n;
  }

  disbursement(index: number): TruthDisbursement {
    if (!Number.isInteger(index) || index < 0 || index >= this.src.ds.n)
      throw new RangeError(`no disbursement ${index}`);
    const m = buildModel(this.src.ds, index, this.src.generation());
    return {
      index,
      disbursement_id: m.id,
      recipient_id: m.recipient.id,
      currency: m.currency,
      delivered_at: iso(m.deliveredAtMs),
      amount: m.amount,
      bank_account_number: m.account,
      anomaly: m.anomaly,
      visible: index < this.src.visibleCount(),
      expected: expectedOf(m),
    };
  }

  *disbursements(): IterableIterator<TruthDisbursement> {
    for (let i = 0; i < this.src.ds.n; i += 1) yield this.disbursement(i);
  }

  anomalies(): TruthAnomaly[] {
    const out: TruthAnomaly[] = [];
    const { ds } = this.src;
    for (let i = 0; i < ds.n; i += 1) {
      const kind = ds.anomalyOf(i);
      if (!kind) continue;
      const m = buildModel(ds, i, this.src.generation());
      out.push({ kind, index: i, disbursement_id: m.id, subject: m.subject, checks: [...ANOMALY_CHECKS[kind]] });
    }
    return out;
  }
}

/** JSON.stringify replacer: bigint sums travel as decimal strings over HTTP. */
export function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
