// Deterministic dataset: a few numbers per disbursement are precomputed in typed arrays; the lines of a
// disbursement are generated on demand from (seed, options, index) only, so memory stays flat.
// Index 0 is the oldest disbursement; recipient = index mod recipients, so a disbursement's predecessor
// for the same recipient is index − recipients.
import { subMonths } from 'date-fns';
import { ANOMALY_KINDS, type AnomalyKind } from './kinds.js';
import { chooseAnomalies } from './choose.js';
import type { Resolved } from './options.js';
import { convert, makeRecipients, payoutRange, PAYER_CURRENCIES, type Recipient } from './recipients.js';
import { rngFor } from './rng.js';

export interface BasePayout {
  j: number;
  paymentId: string;
  reference: string;
  amount: number;
  currency: string;
  /** Payer side of an FX payment (currency_from ≠ currency_to), null when the payer paid in the payout currency. */
  fx: { currency: string; amount: number } | null;
  deliveredAtMs: number;
}

export interface BaseRefund {
  refundId: string;
  paymentId: string;
  externalReference: string | null;
  amount: number;
  currency: string;
}

export type EntryType = 'credit' | 'debit' | 'reversal';

export interface BaseAdjustment {
  reference: string;
  category: string;
  amount: number;
  currency: string;
  entryType: EntryType;
  paymentId: string;
}

const DEBIT_CATEGORIES = ['service', 'surcharge', 'chargeback_fee', 'rolling_reserve'] as const;
const CREDIT_CATEGORIES = ['fx_correction', 'rolling_reserve', 'service'] as const;

const b36 = (n: number): string => n.toString(36);

export class Dataset {
  readonly n: number;
  readonly seed: string;
  readonly recipients: Recipient[];
  readonly deliveredAt: Float64Array;
  readonly nPayouts: Uint32Array;
  readonly nRefunds: Uint32Array;
  readonly nAdjustments: Uint8Array;
  /** ANOMALY_KINDS index, −1 for none. */
  readonly anomaly: Int8Array;
  /** Bank account version of the disbursement's recipient (bumped by bank_account_changed). */
  readonly accountVersion: Uint32Array;
  private readonly tag: string;

  constructor(readonly opts: Resolved) {
    this.n = opts.disbursements;
    this.seed = opts.seed;
    this.recipients = makeRecipients(opts.seed, opts.recipients);
    this.tag = rngFor(opts.seed, 'tag', 0).hex(4);
    this.deliveredAt = new Float64Array(this.n);
    this.nPayouts = new Uint32Array(this.n);
    this.nRefunds = new Uint32Array(this.n);
    this.nAdjustments = new Uint8Array(this.n);
    this.accountVersion = new Uint32Array(this.n);
    this.fillCounts();
    this.clusterBusyDay();
    this.anomaly = chooseAnomalies(this, opts.anomalies);
    this.fitCountsToAnomalies();
    this.fillAccountVersions();
  }

  recipientOf(i: number): Recipient {
    return this.recipients[i % this.recipients.length] as Recipient;
  }

  predecessor(i: number): number | null {
    const p = i - this.recipients.length;
    return p >= 0 ? p : null;
  }

  anomalyOf(i: number): AnomalyKind | null {
    const k = this.anomaly[i] ?? -1;
    return k < 0 ? null : (ANOMALY_KINDS[k] ?? null);
  }

  // IDs are opaque to clients; they happen to encode the indexes so lookups need no map.
  disbursementId(i: number): string {
    return `dsb_${this.tag}${b36(i).padStart(5, '0')}`;
  }

  paymentId(i: number, j: number): string {
    return `pay_${this.tag}${b36(i).padStart(5, '0')}-${b36(j)}`;
  }

  parseDisbursementId(id: string): number | null {
    const prefix = `dsb_${this.tag}`;
    if (!id.startsWith(prefix)) return null;
    const i = parseInt(id.slice(prefix.length), 36);
    return Number.isInteger(i) && i < this.n && this.disbursementId(i) === id ? i : null;
  }

  parsePaymentId(id: string): { i: number; j: number } | null {
    const m = /^pay_([0-9a-f]{4})([0-9a-z]{5,})-([0-9a-z]+)$/.exec(id);
    if (!m || m[1] !== this.tag) return null;
    const i = parseInt(m[2] ?? '', 36);
    const j = parseInt(m[3] ?? '', 36);
    if (!(i < this.n) || !(j < (this.nPayouts[i] ?? 0)) || this.paymentId(i, j) !== id) return null;
    return { i, j };
  }

  private fillCounts(): void {
    const start = subMonths(new Date(this.opts.endDateMs), this.opts.months).getTime();
    const step = this.n > 1 ? (this.opts.endDateMs - start) / (this.n - 1) : 0;
    const mean = this.opts.payoutsPerDisbursement;
    for (let i = 0; i < this.n; i += 1) {
      const rng = rngFor(this.seed, 'meta', i);
      const jitter = i === this.n - 1 ? 0 : rng.float(0, 0.6) * step;
      const t = this.opts.endDateMs - (this.n - 1 - i) * step - jitter;
      this.deliveredAt[i] = Math.floor(t / 1000) * 1000;
      const payouts = rng.int(1, 2 * mean - 1);
      this.nPayouts[i] = payouts;
      this.nRefunds[i] = this.recipientOf(i).netting && rng.chance(0.7) ? rng.int(0, Math.floor(payouts / 4)) : 0;
      this.nAdjustments[i] = rng.chance(0.3) ? 0 : rng.int(1, 4);
    }
  }

  /**
   * A busy day: one block of 3R consecutive disbursements (R recipients: each one's next three)
   * delivered within 20 hours, a quarter of the way in, so the client's bank can credit one account's three
   * disbursements at once (statements.ts plants its batch credit there). Times stay in index order.
   */
  private clusterBusyDay(): void {
    const size = 3 * this.recipients.length;
    if (this.n < 4 * size) return;
    const b = Math.floor(this.n / 4);
    const start = this.deliveredAt[b] ?? 0;
    const span = Math.min(20 * 3600_000, ((this.deliveredAt[b + size] ?? start) - start) * 0.9);
    for (let k = 1; k < size; k += 1) this.deliveredAt[b + k] = Math.floor((start + (k * span) / size) / 1000) * 1000;
  }

  /** Some kinds need material to act on: a second payout, a debit adjustment. */
  private fitCountsToAnomalies(): void {
    for (let i = 0; i < this.n; i += 1) {
      const kind = this.anomalyOf(i);
      if (kind === 'payout_missing_from_api' || kind === 'invalid_record') {
        this.nPayouts[i] = Math.max(2, this.nPayouts[i] ?? 0);
      }
      if (kind === 'debit_as_credit') this.nAdjustments[i] = Math.max(1, this.nAdjustments[i] ?? 0);
    }
  }

  private fillAccountVersions(): void {
    const current = new Uint32Array(this.recipients.length);
    for (let i = 0; i < this.n; i += 1) {
      const r = i % this.recipients.length;
      if (this.anomalyOf(i) === 'bank_account_changed') current[r] = (current[r] ?? 0) + 1;
      this.accountVersion[i] = current[r] ?? 0;
    }
  }

  /** The payouts of disbursement i before any anomaly, from its own stream. */
  basePayouts(i: number): BasePayout[] {
    const rng = rngFor(this.seed, 'payouts', i);
    const { currency } = this.recipientOf(i);
    const [lo, hi] = payoutRange(currency);
    const delivered = this.deliveredAt[i] ?? 0;
    const out: BasePayout[] = [];
    const count = this.nPayouts[i] ?? 0;
    for (let j = 0; j < count; j += 1) {
      const amount = rng.logInt(lo, hi);
      const fromCcy = rng.chance(0.2) ? rng.pick(PAYER_CURRENCIES.filter((c) => c !== currency)) : null;
      out.push({
        j,
        paymentId: this.paymentId(i, j),
        reference:
          `PO-${this.tag.toUpperCase()}${b36(i).toUpperCase().padStart(5, '0')}-${String(j + 1).padStart(3, '0')}`,
        amount,
        currency,
        fx: fromCcy ? { currency: fromCcy, amount: convert(amount, currency, fromCcy, rng.float(0.005, 0.03)) } : null,
        deliveredAtMs: delivered - rng.int(3600, 5 * 86400) * 1000,
      });
    }
    return out;
  }

  /** Refunds net earlier payments of the recipient (its previous disbursement when there is one). */
  baseRefunds(i: number, payouts: BasePayout[]): BaseRefund[] {
    const count = this.nRefunds[i] ?? 0;
    if (count === 0) return [];
    const rng = rngFor(this.seed, 'refunds', i);
    const pred = this.predecessor(i);
    const source = pred !== null && (this.nPayouts[pred] ?? 0) >= count ? this.basePayouts(pred) : payouts;
    const picks = rng.shuffle(source.map((_, k) => k)).slice(0, count);
    const mean = payouts.reduce((s, p) => s + p.amount, 0) / payouts.length;
    return picks.map((k, r) => {
      const paid = source[k] as BasePayout;
      return {
        refundId: `rfd_${this.tag}${b36(i).padStart(5, '0')}-${b36(r)}`,
        paymentId: paid.paymentId,
        externalReference: rng.chance(0.7) ? `ORD-${rng.int(100000, 999999)}` : null,
        // at most half the mean payout: keeps every disbursement total positive (refunds ≤ payouts / 4)
        amount: Math.max(1, Math.min(Math.floor(paid.amount * rng.float(0.1, 0.6)), Math.floor(mean / 2))),
        currency: paid.currency,
      };
    });
  }

  baseAdjustments(i: number, payouts: BasePayout[]): BaseAdjustment[] {
    const count = this.nAdjustments[i] ?? 0;
    const rng = rngFor(this.seed, 'adjustments', i);
    const mean = payouts.reduce((s, p) => s + p.amount, 0) / payouts.length;
    const out: BaseAdjustment[] = [];
    for (let a = 0; a < count; a += 1) {
      const forceDebit = a === 0 && this.anomalyOf(i) === 'debit_as_credit';
      const entryType: EntryType = forceDebit || rng.chance(0.6) ? 'debit' : 'credit';
      out.push({
        reference: `adj_${this.tag}${b36(i).padStart(5, '0')}-${b36(a)}`,
        category: rng.pick(entryType === 'debit' ? DEBIT_CATEGORIES : CREDIT_CATEGORIES),
        // small: at most 2% of the mean payout each
        amount: Math.max(1, Math.floor(mean * rng.float(0.002, 0.02))),
        currency: this.recipientOf(i).currency,
        entryType,
        paymentId: rng.pick(payouts).paymentId,
      });
    }
    return out;
  }
}
