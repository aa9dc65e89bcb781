// Bank statements of the sandbox's disbursements: what the client's bank would send for the
// accounts the disbursements went to, one statement per account, in the formats banks send in turn by
// account (camt.053, MT940, a CSV portal export, BAI2 — camt.053 where BAI2 cannot write the currency's
// amounts), with the provider's credits one business day after delivery, the account's other traffic, and
// planted bank cases with their expected finding (each statement opens a week before the first delivery,
// so every planted case's window lies inside a period a statement covers):
//   missing_credit      no credit at all                                  → bank_missing_credit
//   fee_deducted        a credit 2.5 % short, naming the disbursement     → bank_amount_differs (over the
//                                                                            default 1 % bank-fee tolerance)
//   duplicate_credit    the credit twice                                  → bank_duplicate_credit
//   other_account       the credit on another account's statement         → bank_account_mismatch
//   late_credit         three business days after delivery (two late)     → none (inside the window)
//   no_reference        a remittance text without the id, unique amount   → none (matched by amount and date)
//   batch_credit        one credit for three disbursements of an account  → none (settled as a batch)
//   bank_fee            a credit short by a 15.00 bank charge             → none (settled, the fee booked)
// The planted disbursements carry no API anomaly of their own. Deterministic: same sandbox, same bytes.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { currencyFactor } from './money.js';
import { bai2Fits, renderStatement, type StatementEntry, type StatementFormat } from './statement-formats.js';
import type { Truth, TruthDisbursement } from './truth.js';

export type BankCase =
  | 'missing_credit'
  | 'fee_deducted'
  | 'duplicate_credit'
  | 'other_account'
  | 'late_credit'
  | 'no_reference'
  | 'batch_credit'
  | 'bank_fee';
export const BANK_CASES: readonly BankCase[] = [
  'missing_credit', 'fee_deducted', 'duplicate_credit', 'other_account', 'late_credit', 'no_reference', 'batch_credit',
  'bank_fee',
];
export const BANK_CASE_CHECKS: Record<BankCase, string | null> = {
  missing_credit: 'bank_missing_credit',
  fee_deducted: 'bank_amount_differs',
  duplicate_credit: 'bank_duplicate_credit',
  other_account: 'bank_account_mismatch',
  late_credit: null,
  no_reference: null,
  batch_credit: null,
  bank_fee: null,
};

/** The provider as the bank names the payer of its credits. */
export const PROVIDER_NAME = 'PAYMENTS SERVICE BV';
/** The planted bank charge, in major units of the disbursement's currency. */
export const PLANTED_FEE_MAJOR = 15;

export interface WrittenStatements {
  files: string[];
  planted: Array<{ kind: BankCase; disbursement_id: string; check: string | null }>;
}

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const accountOf = (d: TruthDisbursement) => `${d.bank_account_number}|${d.currency}`;

/** `n` business days (Monday to Friday) after the day of `ms`. */
function businessDaysAfter(ms: number, n: number): number {
  let t = Date.parse(`${isoDay(ms)}T00:00:00Z`);
  for (let k = 0; k < n;) {
    t += DAY;
    const dow = new Date(t).getUTCDay();
    if (dow !== 0 && dow !== 6) k += 1;
  }
  return t;
}

/** A full account number for a masked one: an IBAN-shaped number ending in the visible digits. */
export function fullAccount(masked: string, currency: string): string {
  const tail = masked.replace(/\D/g, '').slice(-4).padStart(4, '0');
  let h = 0;
  for (const ch of `${masked}:${currency}`) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `NL${String(10 + (h % 89))}RCON${String(h % 1_000_000).padStart(6, '0')}${tail}`;
}

/** Three clean disbursements of one account delivered within a day (the dataset's busy day), or none. */
function batchOf(clean: TruthDisbursement[]): TruthDisbursement[] {
  for (const d of clean) {
    const same = clean.filter(
      (o) =>
        accountOf(o) === accountOf(d) &&
        Date.parse(o.delivered_at) >= Date.parse(d.delivered_at) &&
        Date.parse(o.delivered_at) - Date.parse(d.delivered_at) < DAY,
    );
    if (same.length >= 3) return same.slice(0, 3);
  }
  return [];
}

/** The planted cases: the batch first (it needs the busy day), then the others spread over the older half. */
function plantCases(clean: TruthDisbursement[]): Map<string, BankCase> {
  const chosen = new Map<string, BankCase>();
  const half = clean.slice(0, Math.floor(clean.length / 2));
  for (const d of batchOf(half)) chosen.set(d.disbursement_id, 'batch_credit');
  const free = half.filter((d) => !chosen.has(d.disbursement_id));
  const single = BANK_CASES.filter((k) => k !== 'batch_credit');
  single.forEach((kind, k) => {
    // a 15.00 charge is within the default tolerance (1 %) only for an amount of 1,500.00 or more
    const fits = (d: TruthDisbursement) =>
      !chosen.has(d.disbursement_id) &&
      (kind !== 'bank_fee' || BigInt(d.amount) * 1n >= BigInt(PLANTED_FEE_MAJOR * currencyFactor(d.currency)) * 100n);
    const from = Math.floor((k * free.length) / single.length);
    const d = [...free.slice(from), ...free.slice(0, from)].find(fits);
    if (d) chosen.set(d.disbursement_id, kind);
  });
  return chosen;
}

export function statementEntries(truth: Truth): { entries: StatementEntry[]; planted: WrittenStatements['planted'] } {
  const ds = [...truth.disbursements()].filter((d) => d.visible);
  const entries: StatementEntry[] = [];
  // planted cases: disbursements without an API anomaly, in the older half (their windows are covered)
  const clean = ds.filter((d) => d.anomaly === null).sort((a, b) => a.delivered_at.localeCompare(b.delivered_at));
  const chosen = plantCases(clean);
  const planted = [...chosen]
    .map(([id, kind]) => ({ kind, disbursement_id: id, check: BANK_CASE_CHECKS[kind] }))
    .sort(
      (a, b) =>
        BANK_CASES.indexOf(a.kind) - BANK_CASES.indexOf(b.kind) || a.disbursement_id.localeCompare(b.disbursement_id),
    );
  const accounts = [...new Set(ds.map(accountOf))].sort();
  const credit = (d: TruthDisbursement, over: Partial<StatementEntry> = {}): StatementEntry => ({
    account: fullAccount(d.bank_account_number, d.currency), currency: d.currency,
    date: isoDay(businessDaysAfter(Date.parse(d.delivered_at), 1)), amount: BigInt(d.amount), direction: 'credit',
    remittance: `SETTLEMENT ${d.disbursement_id}`, endToEnd: `E2E-${d.disbursement_id}`, counterparty: PROVIDER_NAME,
    ref: `BNK-${d.disbursement_id}`, ...over,
  });
  const batch = ds.filter((d) => chosen.get(d.disbursement_id) === 'batch_credit');
  if (batch.length > 0) {
    const last = batch[batch.length - 1]!;
    entries.push(
      credit(last, {
        amount: batch.reduce((s, d) => s + BigInt(d.amount), 0n),
        remittance: `SETTLEMENT ${batch.map((d) => d.disbursement_id).join(' ')}`,
        endToEnd: null,
        ref: `BNK-BATCH-${last.disbursement_id}`,
        batch: batch.map((d) => ({
          endToEnd: `E2E-${d.disbursement_id}`,
          remittance: `SETTLEMENT ${d.disbursement_id}`,
          amount: BigInt(d.amount),
        })),
      }),
    );
  }
  for (const d of ds) {
    const kind = chosen.get(d.disbursement_id);
    if (kind === 'missing_credit' || kind === 'batch_credit') continue;
    if (kind === 'fee_deducted') {
      entries.push(credit(d, { amount: BigInt(d.amount) - BigInt(Math.max(1, Math.round(d.amount * 0.025))) }));
    } else if (kind === 'bank_fee') {
      entries.push(credit(d, { amount: BigInt(d.amount) - BigInt(PLANTED_FEE_MAJOR * currencyFactor(d.currency)) }));
    } else if (kind === 'duplicate_credit') {
      entries.push(credit(d));
      entries.push(
        credit(d, {
          date: isoDay(businessDaysAfter(Date.parse(d.delivered_at), 2)),
          ref: `BNK-${d.disbursement_id}-2`,
        }),
      );
    } else if (kind === 'other_account') {
      // booked on another account of the same currency (or a made-up one when there is none)
      const other = accounts.find((a) => a.endsWith(`|${d.currency}`) && !a.startsWith(`${d.bank_account_number}|`));
      const masked = other
        ? other.split('|')[0]!
        : `****${String((Number(d.bank_account_number.slice(-4)) + 1) % 10_000).padStart(4, '0')}`;
      entries.push(credit(d, { account: fullAccount(masked, d.currency) }));
    } else if (kind === 'late_credit') {
      entries.push(credit(d, { date: isoDay(businessDaysAfter(Date.parse(d.delivered_at), 3)) }));
    } else if (kind === 'no_reference') {
      entries.push(credit(d, { remittance: 'PAYMENTS SERVICE SETTLEMENT', endToEnd: null }));
    } else {
      entries.push(credit(d));
    }
  }
  // the accounts' other traffic: a customer's transfer and a monthly fee, never the provider's; the
  // transfer on the statements' first day (a CSV export states no period: its first entry begins it)
  const last = Math.max(...ds.map((d) => Date.parse(d.delivered_at)));
  const { from } = statementPeriod(truth);
  accounts.forEach((a, i) => {
    const [masked, currency] = a.split('|') as [string, string];
    const account = fullAccount(masked, currency);
    entries.push({ account, currency, date: from, amount: BigInt(12_345 + i), direction: 'credit',
      remittance: `INVOICE ${1000 + i}`, endToEnd: null, counterparty: 'A CUSTOMER LTD', ref: `BNK-OTHER-${i}` });
    // the statements run a week past the last delivery: every window but the newest is covered
    entries.push({ account, currency, date: isoDay(businessDaysAfter(last, 5)), amount: 500n, direction: 'debit',
      remittance: 'ACCOUNT FEE', endToEnd: null, counterparty: 'THE BANK', ref: `BNK-FEE-${i}` });
  });
  return { entries, planted };
}

/** The weekday on or before the day of `ms`. */
function weekdayOnOrBefore(ms: number): number {
  let t = Date.parse(`${isoDay(ms)}T00:00:00Z`);
  while ([0, 6].includes(new Date(t).getUTCDay())) t -= DAY;
  return t;
}

/**
 * The days every account's statement covers: from a week before the first delivery (a client's bank
 * account exists before its first settlement; camt.053 FrToDt, MT940 :60F:, BAI2 as-of dates say so) to a
 * week past the last delivery (every window but the newest is covered).
 */
export function statementPeriod(truth: Truth): { from: string; to: string } {
  const delivered = [...truth.disbursements()].filter((d) => d.visible).map((d) => Date.parse(d.delivered_at));
  return {
    from: isoDay(weekdayOnOrBefore(Math.min(...delivered) - 7 * DAY)),
    to: isoDay(businessDaysAfter(Math.max(...delivered), 5)),
  };
}

const FORMATS: readonly StatementFormat[] = ['camt', 'mt940', 'csv', 'bai2'];

/** Writes one statement file per account into `dir`; returns the files and the planted cases. */
export async function writeStatements(truth: Truth, dir: string): Promise<WrittenStatements> {
  const { entries, planted } = statementEntries(truth);
  const period = statementPeriod(truth);
  await mkdir(dir, { recursive: true });
  const byAccount = new Map<string, StatementEntry[]>();
  for (const e of entries) {
    const list = byAccount.get(e.account);
    if (list) list.push(e);
    else byAccount.set(e.account, [e]);
  }
  const files: string[] = [];
  let k = 0;
  for (const [account, list] of [...byAccount].sort(([a], [b]) => a.localeCompare(b))) {
    list.sort((a, b) => a.date.localeCompare(b.date) || a.ref.localeCompare(b.ref));
    const id = `STMT-${account.slice(-8)}`;
    const turn = FORMATS[k % FORMATS.length]!;
    const format = turn === 'bai2' && !bai2Fits(list) ? 'camt' : turn;
    const statement = { account, currency: list[0]!.currency, entries: list, id, period };
    const [extension, text] = renderStatement(format, statement);
    const file = path.join(dir, `${id}.${extension}`);
    await writeFile(file, text);
    files.push(file);
    k += 1;
  }
  return { files, planted };
}
