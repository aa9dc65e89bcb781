// BAI2 (Cash Management Balance Reporting Specifications, version 2; the format US banks send, and ANSI
// X9.121 BTRS after it): comma-separated records ending in "/", 01 file header, 02 group header (as-of
// date, group currency), 03 account (number, currency, summary amounts), 16 transaction detail (type
// code, amount, funds type with its own fields, bank and customer references, free text to the end of
// the record), 88 continuing the record before it, 49 / 98 / 99 trailers with control totals and record
// counts. Amounts have no decimal point: the implied decimals are the currency's ISO 4217 minor units.
// The trailers are checked (a lost or added record refuses the file), and a group of status 2 (deletion)
// or 4 (test only) is refused with a sentence. Type codes 100–399 and 920–959 are credits, 400–699 and
// 960–999 debits; 890 carries no money and is skipped. An account's statement covers its group's as-of
// date; its 03 summary's status codes 010 (opening ledger) and 015 (closing ledger) are its balances. A
// defaulted field where a summary's type code is expected (a record written "015,35217175,,,/" and
// continued by 88) is passed over, never the end of the summary.
import {
  MAX_ENTRIES, MAX_LINE, MAX_RAW, StatementError, clip, currencyOf, yymmdd, type BankEntry, type Statement,
  type StatementBalance,
} from './statement.js';
import { currencyFactor, isoMinorUnits } from '../money.js';

export function isBai2(content: string): boolean {
  // a file header ended by "/", or (newline-delimited records) followed by a group header
  return /^\s*01,[^\n]*(\/|\r?\n02,)/.test(content.slice(0, 4096));
}

interface Logical {
  code: string;
  text: string; // the record after "NN," with its 88 continuations
  line: number;
  physical: number;
}

/** Logical records: each physical record, with the 88 records after it joined to it. */
function records(file: string, content: string, notes: string[]): Logical[] {
  const out: Logical[] = [];
  const colons: number[] = [];
  content.split(/\r\n|\r|\n/).forEach((raw, i) => {
    if (raw.length > MAX_LINE) throw new StatementError(file, `line ${i + 1}`, `longer than ${MAX_LINE} characters`);
    if (raw.trim() === '') return;
    // Some banks' files write a continuation "88:": nothing else starts so, and the trailers' totals and counts
    // still check what it carries. Any other line that is not "NN," — a line of digits and a slash among them —
    // is refused: the specification knows no filler or comment line, and skipping one could drop a record's text
    // or amount that the bank wrapped onto it.
    const m = /^(\d{2}),(.*)$/s.exec(raw) ?? /^(88):(.*)$/s.exec(raw);
    if (!m) throw new StatementError(file, `line ${i + 1}`, `"${clip(raw, 40) ?? ''}" is not a BAI2 record (NN,…)`);
    if (raw[2] === ':') colons.push(i + 1);
    const [, code, rest] = m;
    const last = out[out.length - 1];
    if (code === '88') {
      if (!last) throw new StatementError(file, `line ${i + 1}`, 'a continuation (88) before any record');
      const before = last.code === '16' ? last.text : last.text.trimEnd();
      // an 88 continues the record before it with its next field, whether that record ended with "/" or only
      // with the line (newline-delimited files); a 16's free text runs on as the bank cut it (a fixed-length
      // record's padding stands for the space it ended with)
      last.text = last.code !== '16' ? `${before.replace(/\/$/, '')},${rest}`
        : !before.trimEnd().endsWith('/') ? `${before}${rest}` : `${before.trimEnd().slice(0, -1)} ${rest}`;
      last.physical += 1;
      return;
    }
    if (last?.code === '16') last.text = last.text.trimEnd(); // complete: another record follows
    out.push({ code: code!, text: code === '16' ? rest! : rest!.trimEnd(), line: i + 1, physical: 1 });
  });
  const last = out[out.length - 1];
  if (last?.code === '16') last.text = last.text.trimEnd();
  if (colons.length > 0) {
    const lines = `${colons.slice(0, 10).join(', ')}${colons.length > 10 ? ', …' : ''}`;
    notes.push(`line${colons.length > 1 ? 's' : ''} ${lines}: a continuation written "88:" read as "88,"`);
  }
  return out;
}

/** The fields of a record up to its "/" (a defaulted field is ''). */
const fields = (text: string): string[] => text.replace(/\/.*$/s, '').split(',');

/** A cursor over a 16 record: fields one by one, then the text as the rest of the record. */
class Cursor {
  private at = 0;
  constructor(private readonly text: string) {}
  next(): string {
    if (this.at > this.text.length) return '';
    const comma = this.text.indexOf(',', this.at);
    const end = comma < 0 ? this.text.length : comma;
    const field = this.text.slice(this.at, end);
    this.at = end + 1;
    if (field.endsWith('/')) this.at = this.text.length + 1; // the record ends here: what follows is defaulted
    return field.replace(/\/$/, '');
  }
  rest(): string {
    const rest = this.at > this.text.length ? '' : this.text.slice(this.at);
    this.at = this.text.length + 1;
    return rest.replace(/\/\s*$/, '');
  }
}

interface Group {
  asOf: string;
  currency: string | null;
  line: number;
}

interface Account {
  number: string;
  currency: string;
  line: number;
  opening: StatementBalance | null;
  closing: StatementBalance | null;
  total: bigint;
  records: number;
  entries: BankEntry[];
}

export function parseBai2(file: string, content: string): Statement[] {
  const statements: Statement[] = [];
  let group: Group | null = null;
  let account: Account | null = null;
  let fileRecords = 0;
  let entries = 0;
  let ended = false;
  const notes: string[] = [];
  const all = records(file, content, notes);
  for (const r of all) {
    const fail = (reason: string): never => {
      throw new StatementError(file, `line ${r.line} (${r.code})`, reason);
    };
    if (ended) fail('a record after the file trailer (99)');
    fileRecords += r.physical;
    if (account && r.code !== '16' && r.code !== '49')
      fail(`record ${r.code} inside account ${clip(account.number, 40) ?? ''}, before its trailer (49)`);
    switch (r.code) {
      case '01':
        if (fileRecords !== 1) fail('a second file header');
        break;
      case '02': {
        if (group) fail('a group header (02) before the trailer (98) of the group before it');
        const [, , status, asOf, , currency] = fields(r.text);
        if (status === '2')
          fail(
            'group status 2: it deletes a group sent before, which recon cannot undo; import the corrected ' +
              'statement instead',
          );
        if (status === '4') fail('group status 4: a test file, not a statement');
        group = {
          asOf: yymmdd(asOf ?? '', fail).date,
          currency: currency ? currencyOf(currency, fail) : null,
          line: r.line,
        };
        break;
      }
      case '03': {
        if (!group) fail('an account (03) outside a group (02)');
        const [number, currency, ...summary] = fields(r.text);
        if (!number) fail('no account number');
        const code = currency ? currencyOf(currency, fail) : group!.currency ?? 'USD';
        const sums = summaries(summary, fail);
        const balance = (type: string): StatementBalance | null => {
          const s = sums.find((x) => x.type === type && x.amount !== '');
          return s ? { amount: signedAmountOf(s.amount, code, fail), currency: code, date: group!.asOf } : null;
        };
        account = {
          number: number!.trim(), currency: code, line: r.line, opening: balance('010'), closing: balance('015'),
          total: 0n, records: r.physical, entries: [],
        };
        account.total += sums.reduce((t, x) => t + signed(x.amount, fail), 0n);
        break;
      }
      case '16': {
        if (!account) fail('a transaction detail (16) outside an account (03)');
        if ((entries += 1) > MAX_ENTRIES) fail(`more than ${MAX_ENTRIES} entries`);
        const detail = detailOf(r, account!, group!, fail);
        account!.records += r.physical;
        account!.total += detail.amount;
        if (detail.entry) account!.entries.push(detail.entry);
        break;
      }
      case '49': {
        if (!account) fail('an account trailer (49) without its account (03)');
        const [total, count] = fields(r.text);
        const a = account!;
        a.records += r.physical;
        if (signed(total ?? '', fail) !== a.total)
          fail(
            `account control total ${total} is not the sum of the account's amounts (${a.total}): a record is ` +
              `missing or damaged`,
          );
        if (count && Number(count) !== a.records)
          fail(
            `the account trailer counts ${Number(count)} records, the account has ${a.records}: a record is missing ` +
              `or added`,
          );
        statements.push({ format: 'bai2', bankStatementId: `${group!.asOf}`, account: a.number, entries: a.entries,
          period: { from: group!.asOf, to: group!.asOf }, opening: a.opening, closing: a.closing });
        account = null;
        break;
      }
      case '98':
        if (!group) fail('a group trailer (98) without its group (02)');
        group = null;
        break;
      case '99': {
        if (group) fail('the file trailer (99) before the trailer (98) of the last group');
        const [, , count] = fields(r.text);
        if (count && Number(count) !== fileRecords)
          fail(
            `the file trailer counts ${Number(count)} records, the file has ${fileRecords}: a record is missing or ` +
              `added`,
          );
        ended = true;
        break;
      }
      default:
        fail(`unknown record code ${r.code}`);
    }
  }
  if (!ended)
    throw new StatementError(
      file,
      `line ${all[all.length - 1]?.line ?? 1}`,
      'no file trailer (99): the file is cut short',
    );
  if (all[0]?.code !== '01') throw new StatementError(file, 'line 1', 'no file header (01)');
  const [first, ...rest] = statements;
  return first && notes.length > 0 ? [{ ...first, notes }, ...rest] : statements;
}

/** A BAI2 amount: digits with the currency's implied decimals, as subunits. */
function amountOf(digits: string, currency: string, fail: (reason: string) => never): bigint {
  if (!/^\d+$/.test(digits)) fail(`amount "${clip(digits, 30) ?? ''}" is not digits`);
  const scale = 10n ** BigInt(isoMinorUnits(currency));
  const value = BigInt(digits) * BigInt(currencyFactor(currency));
  if (value % scale !== 0n) fail(`amount ${digits} ${currency} is not a whole number of subunits`);
  if (value / scale > 2n ** 63n - 1n) fail(`amount ${digits} ${currency} is larger than any account holds`);
  return value / scale;
}

/** A signed amount of a summary or trailer (in the same implied-decimal units; only compared, never stored). */
function signed(text: string, fail: (reason: string) => never): bigint {
  const m = /^([+-]?)(\d*)$/.exec(text.trim());
  if (!m) fail(`amount "${clip(text, 30) ?? ''}" is not a signed number`);
  const v = BigInt(m![2] || '0');
  return m![1] === '-' ? -v : v;
}

/** The 03 record's summaries (type code, amount, item count, funds type and its fields), in order. */
function summaries(summary: string[], fail: (reason: string) => never): Array<{ type: string; amount: string }> {
  const out: Array<{ type: string; amount: string }> = [];
  for (let k = 0; k < summary.length;) {
    const [type, amount, , funds] = summary.slice(k, k + 4);
    if (!type?.trim()) {
      // a defaulted field (a trailing ",/" continued by 88): nothing to add, the next summary may follow
      k += 1;
      continue;
    }
    out.push({ type: type.trim(), amount: (amount ?? '').trim() });
    k += 4 + fundsFieldCount(funds ?? '', summary.slice(k + 4), fail);
  }
  return out;
}

/** A signed summary amount (a balance) as subunits of the account's currency. */
function signedAmountOf(text: string, currency: string, fail: (reason: string) => never): bigint {
  const negative = text.startsWith('-');
  const value = amountOf(text.replace(/^[+-]/, ''), currency, fail);
  return negative ? -value : value;
}

/** How many fields follow a funds type code: S three amounts, V a date and a time, D a count and its pairs. */
function fundsFieldCount(funds: string, after: string[], fail: (reason: string) => never): number {
  switch (funds) {
    case '': case '0': case '1': case '2': case 'Z': return 0;
    case 'S': return 3;
    case 'V': return 2;
    case 'D': return 1 + 2 * Number(after[0] || 0);
    default: return fail(`funds type "${clip(funds, 5) ?? ''}" is none of 0, 1, 2, S, V, D, Z`);
  }
}

function directionOf(type: string, fail: (reason: string) => never): 'credit' | 'debit' | null {
  const n = Number(type);
  if (!/^\d{3}$/.test(type)) fail(`type code "${clip(type, 5) ?? ''}" is not three digits`);
  if ((n >= 100 && n <= 399) || (n >= 920 && n <= 959)) return 'credit';
  if ((n >= 400 && n <= 699) || n >= 960) return 'debit';
  if (n === 890) return null; // non-monetary information
  return fail(`type code ${type} is not a transaction detail (credits 100–399, 920–959; debits 400–699, 960–999)`);
}

function detailOf(
  r: Logical,
  account: Account,
  group: Group,
  fail: (reason: string) => never,
): { amount: bigint; entry: BankEntry | null } {
  const c = new Cursor(r.text);
  const type = c.next();
  const amountText = c.next();
  const funds = c.next();
  const notes: string[] = [];
  let valueDate = group.asOf;
  if (funds === 'V') {
    valueDate = yymmdd(c.next(), fail).date;
    c.next(); // value time
  } else {
    const extra = fundsFieldCount(funds, [], fail);
    if (funds === 'D') {
      const n = Number(c.next() || 0);
      for (let k = 0; k < 2 * n; k += 1) c.next();
      notes.push(`recon: funds available in ${n} distribution(s)`);
    } else {
      for (let k = 0; k < extra; k += 1) c.next();
      if (funds === '1' || funds === '2')
        notes.push(`recon: funds type ${funds}, available ${funds === '1' ? 'the next day' : 'in two or more days'}`);
    }
  }
  const bankRef = clip(c.next(), 200);
  const customerRef = clip(c.next(), 200);
  const text = clip(c.rest());
  const direction = directionOf(type, fail);
  if (amountText === '') fail('no amount');
  const amount = amountOf(amountText, account.currency, fail);
  const units = BigInt(amountText);
  if (direction === null) return { amount: units, entry: null };
  return {
    amount: units,
    entry: {
      bankRef,
      account: account.number,
      bookingDate: group.asOf,
      valueDate,
      amount,
      currency: account.currency,
      direction,
      endToEndId: customerRef,
      remittance: text,
      counterparty: null,
      batch: null,
      raw: [`16,${r.text}`, `recon: type code ${type}`, ...notes].join('\n').slice(0, MAX_RAW),
      legacy: null,
    },
  };
}
