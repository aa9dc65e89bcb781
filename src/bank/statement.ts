// A bank statement as recon reads it, whatever format the bank sent: the account, and its entries with
// amounts in integer subunits. Parsers (camt053.ts, mt940.ts, csv.ts) either return a whole statement or
// refuse the whole file with the line or element that is wrong: nothing half-read is ever imported.
import { createHash } from 'node:crypto';
import { TerminalError } from '../errors.js';
import { LISTED_CURRENCIES, parseMajor } from '../money.js';
import { isCalendarDate } from '../month.js';

export type StatementFormat = 'camt.053' | 'mt940' | 'csv';

export interface BankEntry {
  /** Identity within its statement: the bank's entry reference, or a content hash when it has none. */
  entryRef: string;
  /** The account as the statement names it (IBAN or account number); stored masked. */
  account: string;
  bookingDate: string | null; // YYYY-MM-DD
  valueDate: string | null; // YYYY-MM-DD
  /** Positive, in subunits of `currency`; `direction` says which way. */
  amount: bigint;
  currency: string;
  direction: 'credit' | 'debit';
  endToEndId: string | null;
  remittance: string | null;
  counterparty: string | null;
  /** The entry as it stood in the file (cut at MAX_RAW characters). */
  raw: string;
}

export interface Statement {
  format: StatementFormat;
  /** The statement's identity: the bank's statement id (camt Stmt/Id, MT940 :20: and :28C:) or a content hash. */
  statementId: string;
  account: string;
  entries: BankEntry[];
}

/** A statement refused as a whole; `where` is the line or element that is wrong. */
export class StatementError extends TerminalError {
  override readonly name = 'StatementError';
  constructor(readonly file: string, readonly where: string, reason: string) {
    super(`${file}: ${where}: ${reason}; nothing of it was imported`);
  }
}

/** Entries a statement may hold; a larger file is refused (memory stays bounded). */
export const MAX_ENTRIES = 200_000;
export const MAX_RAW = 2000;
/** Longest text kept of a remittance, counterparty or reference. */
const MAX_TEXT = 500;

export const clip = (text: string | null | undefined, max = MAX_TEXT): string | null => {
  if (text === null || text === undefined) return null;
  const t = String(text).replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return t === '' ? null : t.length > max ? t.slice(0, max) : t;
};

/** An amount in major units ("1234.56", or "1234,56" with a decimal comma) as subunits, exactly, or an error. */
export function amountOf(text: string, currency: string, fail: (reason: string) => never, decimalComma = false): bigint {
  if (!/^[A-Z]{3}$/.test(currency)) fail(`currency "${clip(currency, 20) ?? ''}" is not a three-letter code`);
  if (!LISTED_CURRENCIES.has(currency)) fail(`currency ${currency} is not one recon knows`);
  let t = text.trim();
  if (decimalComma) {
    if (!/^[+-]?\d[\d.]*(,\d*)?$/.test(t)) fail(`amount "${clip(t, 40) ?? ''}" is not a number`);
    t = t.replace(/\./g, '').replace(',', '.');
  } else if (!/^[+-]?\d+(\.\d*)?$/.test(t)) {
    fail(`amount "${clip(t, 40) ?? ''}" is not a number`);
  }
  if (t.endsWith('.')) t = t.slice(0, -1);
  const value = parseMajor(t, currency);
  if (value === null) fail(`amount ${t} ${currency} is not a whole number of subunits`);
  return value;
}

/** YYYY-MM-DD from a date the format gives, or an error. */
export function isoDate(text: string, fail: (reason: string) => never): string {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(text.trim())?.[0];
  if (!day) fail(`date "${clip(text, 40) ?? ''}" is not YYYY-MM-DD`);
  if (!isCalendarDate(day!)) fail(`date "${day}" does not exist`);
  return day!;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * For entries without a reference of their own: a hash of what they say, with the occurrence of the same
 * content in the statement (two identical transfers on a day are two entries).
 */
export function contentRefs(entries: Array<Omit<BankEntry, 'entryRef'>>): BankEntry[] {
  const seen = new Map<string, number>();
  return entries.map((e) => {
    const content = JSON.stringify([e.account, e.bookingDate, e.valueDate, String(e.amount), e.currency, e.direction, e.endToEndId, e.remittance, e.counterparty]);
    const n = (seen.get(content) ?? 0) + 1;
    seen.set(content, n);
    return { ...e, entryRef: `h:${sha256(content).slice(0, 32)}:${n}` };
  });
}

/** The account as stored: every character but the last four replaced, as the payments service masks it. */
export function maskAccount(account: string): string {
  const compact = account.replace(/\s+/g, '');
  return compact.length <= 4 ? compact : `${'*'.repeat(compact.length - 4)}${compact.slice(-4)}`;
}
