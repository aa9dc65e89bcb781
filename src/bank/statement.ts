// A bank statement as recon reads it, whatever format the bank sent: the account, and its entries with
// amounts in integer subunits. Parsers (camt053.ts, mt940.ts, bai2.ts, csv.ts) either return whole
// statements or refuse the whole file with the line or element that is wrong: nothing half-read is ever
// imported. Identity (#25) is given here, once per file, the same way for every format (identity.ts).
import { TerminalError } from '../errors.js';
import { LISTED_CURRENCIES, parseMajor } from '../money.js';
import { isCalendarDate } from '../month.js';

export type StatementFormat = 'camt.053' | 'mt940' | 'bai2' | 'csv';

export interface BankEntry {
  /** The bank's own reference of the entry (MT940 `//…`, camt AcctSvcrRef / NtryRef, BAI2 bank reference, a CSV column), or null. */
  bankRef: string | null;
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
  /**
   * A batch booking's transactions (camt.053 `NtryDtls` with several `TxDtls`): each one's references and
   * remittance, so one bank credit can name the several disbursements it pays. Null for a single entry.
   */
  batch: string[] | null;
  /** The entry as it stood in the file (cut at MAX_RAW characters), with any note of recon's on how it was read. */
  raw: string;
  /** The identity recon ≤ #17 gave the entry (statement id, entry ref), so a store migrated by 021 knows its rows. */
  legacy: { statementId: string; entryRef: string } | null;
}

export interface Statement {
  format: StatementFormat;
  /** The bank's own name of the statement (camt Stmt/Id, MT940 :20: and :28C:, BAI2 as-of date, CSV layout); identity.ts adds the account. */
  bankStatementId: string;
  account: string;
  entries: BankEntry[];
  /** What recon noticed reading it (lines skipped, quirks read): logged on import, never an error. */
  notes?: string[];
  /**
   * The days the statement says it covers, when it says so (camt FrToDt, MT940 :60F:/:62F: dates, BAI2 as-of
   * date); null bounds are derived from its balances' and entries' dates (period.ts).
   */
  period?: { from: string | null; to: string | null };
  /** Its opening and closing balances as the bank states them, signed, in subunits; null when it states none. */
  opening?: StatementBalance | null;
  closing?: StatementBalance | null;
}

/** A balance a statement states: signed subunits (negative: overdrawn), its currency and its date. */
export interface StatementBalance {
  amount: bigint;
  currency: string;
  date: string; // YYYY-MM-DD
}

/** Text for a terminal or a log line: a file name or a bank's text never carries a control character (an escape). */
export const printable = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');

/** A statement refused as a whole; `where` is the line or element that is wrong. */
export class StatementError extends TerminalError {
  override readonly name = 'StatementError';
  constructor(readonly file: string, readonly where: string, reason: string) {
    super(printable(`${file}: ${where}: ${reason}; nothing of it was imported`));
  }
}

/** Entries a file may hold; a larger file is refused (memory stays bounded). */
export const MAX_ENTRIES = 200_000;
export const MAX_RAW = 2000;
/** Longest text line of a text format (MT940, BAI2, CSV); a longer one refuses its file, as for settlement files. */
export const MAX_LINE = 64 * 1024;
/** Longest text kept of a remittance, counterparty or reference. */
const MAX_TEXT = 500;
const INT64_MAX = 2n ** 63n - 1n;

export const clip = (text: string | null | undefined, max = MAX_TEXT): string | null => {
  if (text === null || text === undefined) return null;
  const t = String(text).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return t === '' ? null : t.length > max ? t.slice(0, max) : t;
};

/**
 * ISO 4217 codes outside the interface's list that bank statements still carry: current codes the
 * interface leaves out and the national currencies the euro replaced (old German exports are in DEM).
 * Their amounts are read with money.ts's default factor of 100.
 */
const OTHER_ISO = new Set(`BYN CUC CUP IQD IRR KPW MRU MRO SDG SSP STN SYP VES VED ZWL SLE XDR XAU XAG
  DEM FRF NLG BEF LUF ATS ITL ESP PTE FIM IEP GRD CYP MTL SIT SKK EEK LVL LTL`.split(/\s+/).filter(Boolean));

export function currencyOf(text: string | null | undefined, fail: (reason: string) => never): string {
  const code = (text ?? '').trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) fail(`currency "${clip(text, 20) ?? ''}" is not a three-letter code`);
  if (!LISTED_CURRENCIES.has(code) && !OTHER_ISO.has(code)) fail(`currency ${code} is not an ISO 4217 code recon knows`);
  return code;
}

/** How a format writes a number: its decimal separator and the thousands separator it allows, if any. */
export interface NumberStyle {
  decimal: '.' | ',';
  thousands?: '.' | ',' | ' ' | "'" | null;
}
export const DECIMAL_POINT: NumberStyle = { decimal: '.' };
export const DECIMAL_COMMA: NumberStyle = { decimal: ',' };

const esc = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An unsigned amount in major units written in `style` ("1234.56", "1.234,56", "2402,") as subunits,
 * exactly, or an error: another separator (a "1000.00" where a decimal comma is the rule) is refused, never
 * guessed, and so is an amount past what a 64-bit integer holds.
 */
export function amountOf(text: string, currency: string, fail: (reason: string) => never, style: NumberStyle = DECIMAL_POINT): bigint {
  const code = currencyOf(currency, fail);
  const t = text.trim();
  const d = esc(style.decimal);
  const plain = new RegExp(`^(\\d+)(?:${d}(\\d*))?$`);
  const grouped = style.thousands ? new RegExp(`^(\\d{1,3}(?:${esc(style.thousands)}\\d{3})+)(?:${d}(\\d*))?$`) : null;
  const m = plain.exec(t) ?? grouped?.exec(t);
  if (!m) {
    const rule = `decimal ${style.decimal === ',' ? 'comma' : 'point'}${style.thousands ? ` and "${style.thousands}" between thousands` : ', no thousands separator'}`;
    fail(`amount "${clip(t, 40) ?? ''}" is not a number written with a ${rule}`);
  }
  const whole = m![1]!.replace(/\D/g, '');
  const frac = m![2] ?? '';
  const major = frac === '' ? whole : `${whole}.${frac}`;
  const value = parseMajor(major, code);
  if (value === null) fail(`amount ${major} ${code} is not a whole number of subunits`);
  if (value! > INT64_MAX) fail(`amount ${major} ${code} is larger than any account holds`);
  return value!;
}

/** YYYY-MM-DD from a date the format gives (a date-time keeps its date), or an error. */
export function isoDate(text: string, fail: (reason: string) => never): string {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(text.trim())?.[0];
  if (!day) fail(`date "${clip(text, 40) ?? ''}" is not YYYY-MM-DD`);
  if (!isCalendarDate(day!)) fail(`date "${day}" does not exist`);
  return day!;
}

/**
 * A YYMMDD date of a text statement (20YY, as the reference parsers read it). With `monthEnd`, a 29th,
 * 30th or 31st the month does not have is read as the month's last day (German banks value interest on
 * 30 February) and `note` says so; any other impossible date is an error.
 */
export function yymmdd(text: string, fail: (reason: string) => never, monthEnd = false): { date: string; note: string | null } {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(text);
  if (!m) fail(`date "${clip(text, 20) ?? ''}" is not YYMMDD`);
  const [, yy, mm, dd] = m!;
  const date = `20${yy}-${mm}-${dd}`;
  if (isCalendarDate(date)) return { date, note: null };
  const month = Number(mm);
  const last = month >= 1 && month <= 12 ? new Date(Date.UTC(2000 + Number(yy), month, 0)).getUTCDate() : 0;
  if (!monthEnd || last === 0 || Number(dd) < 29 || Number(dd) > 31) fail(`date ${date} does not exist`);
  const clamped = `20${yy}-${mm}-${String(last)}`;
  return { date: clamped, note: `recon: the bank wrote ${date}, read as ${clamped}, the month's last day` };
}

/** The account as stored: every character but the last four replaced, as the payments service masks it. */
export function maskAccount(account: string): string {
  const compact = account.replace(/\s+/g, '');
  return compact.length <= 4 ? compact : `${'*'.repeat(compact.length - 4)}${compact.slice(-4)}`;
}

/** Groups items by a key, keeping the order of first appearance. */
export function groupBy<T>(items: Iterable<T>, key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}
