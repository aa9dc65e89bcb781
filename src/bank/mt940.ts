// SWIFT MT940 (customer statement message) as banks write it. Tagged fields, one message per
// statement, several per file: :20: (transaction reference), :25: (account), :28:/:28C: (statement
// number, any form), :60F:/:60M: (opening balance, which gives the currency; else a closing balance or
// the :25: suffix), each :61: statement line with the :86: fields after it (information.ts), and balances.
// Around the SWIFT fields banks put their own lines: envelope blocks ({1:…}{4: … -}), ING's
// "0000 01INGBNL2AXXXX00001" / "940 00", ABN AMRO's "ABNANL2A" / "940", Rabobank's ":940:", blank lines,
// "-XXX" trailers. A line that is not a field, outside a field that can run over lines (:61:, :86:, :NS:),
// is skipped and said in the statement's notes. An MT942 interim report is refused: its entries are not
// booked yet, and the day's MT940 carries them booked (reading both would count them twice).
// SWIFT writes amounts with a decimal comma; some banks' exports (Rabobank's, UK banks') write a decimal
// point instead: a file is read in the one mark its amounts use, and refused when they mix both
// (mt940-amounts.ts). A message cut short (its {4: block never closed, or no closing balance :62F:/:62M:,
// which SWIFT makes mandatory) is refused, never read in part.
import { information } from './mt940-info.js';
import { balanceOf, decimalMarkOf } from './mt940-amounts.js';
import {
  MAX_ENTRIES, MAX_LINE, MAX_RAW, StatementError, amountOf, clip, yymmdd, type BankEntry, type NumberStyle,
  type Statement, type StatementBalance,
} from './statement.js';

const TAG = /^:(\d{2}[A-Z]?|NS):(.*)$/;
/**
 * Fields of MT940 (and of MT942, to recognise it); a tag-shaped line with another number is text of the field before
 * it.
 */
const KNOWN = new Set([
  '13', '13D', '20', '21', '25', '25P', '28', '28C', '28D', '34F', '60', '60F', '60M', '61', '62', '62F', '62M', '64',
  '65', '86', '90C', '90D', 'NS',
]);
/** Fields whose value may run over several lines. */
const MULTILINE = new Set(['61', '86', 'NS']);
const INTERIM = new Set(['13', '13D', '34F']);
const END = /^-(?:X{0,3}|\}.*)$/;
/** :61: subfields 1–7: value date, entry date (or four spaces), mark, funds code, amount, type, references. */
const LINE_61 = /^(\d{6})(\d{4}| {4})?(RC|RD|C|D)([A-Z])? ?(\d[\d,.]*) ?([A-Z][A-Z0-9 ]{3})?(.*)$/;
const NO_REF = /^(NONREF|NOTPROVIDED)?$/i;

export function isMt940(content: string): boolean {
  const head = content.slice(0, 16_384);
  return /(^|\n|\{4:)[ \t]*:20:/.test(head) && /(^|\n):(25|61|60F):/.test(head);
}

interface Field {
  tag: string;
  value: string;
  line: number;
}

/** Each message's fields, in file order; lines outside fields are skipped (said in `notes`). */
function messages(file: string, content: string, notes: string[]): Field[][] {
  const out: Field[][] = [];
  let current: Field[] | null = null;
  let open: Field | null = null; // the field a line without a tag continues
  let block4: number | null = null; // the line of a {4: block not closed yet
  const skipped: number[] = [];
  content.split(/\r\n|\r|\n/).forEach((raw, i) => {
    if (raw.length > MAX_LINE) throw new StatementError(file, `line ${i + 1}`, `longer than ${MAX_LINE} characters`);
    let text = raw.trimEnd();
    // SWIFT envelope blocks {1:}{2:}{3:}{4: on one line or each on its own; the fields follow block 4's opening
    if (/^\{[1-5]:/.test(text)) {
      if (/\{2:[IO]942/.test(text)) refuseInterim(file, i + 1);
      if (block4 !== null && /^\{1:/.test(text)) {
        throw new StatementError(file, `line ${i + 1}`,
          `a new message begins before the message opened at line ${block4} ended (-}): the file is cut short`);
      }
      open = null;
      const body = text.indexOf('{4:');
      if (body < 0) return;
      block4 = i + 1;
      text = text.slice(body + 3);
    }
    if (END.test(text.trim())) {
      block4 = null;
      open = null;
      current = null;
      return;
    }
    if (text.trim() === '') return;
    const m = TAG.exec(text);
    if (m && KNOWN.has(m[1]!)) {
      if (INTERIM.has(m[1]!)) refuseInterim(file, i + 1);
      const field = { tag: m[1]!, value: m[2]!, line: i + 1 };
      if (!current || m[1] === '20') out.push((current = []));
      current.push(field);
      open = MULTILINE.has(field.tag) ? field : null;
      return;
    }
    if (open) open.value += `\n${text}`;
    else skipped.push(i + 1);
  });
  if (block4 !== null) {
    throw new StatementError(file, `line ${block4}`, 'the message opened here never ends (-}): the file is cut short');
  }
  if (skipped.length > 0) {
    notes.push(
      `skipped ${skipped.length} line(s) that are not MT940 fields (bank header or trailer lines): ` +
        `${skipped.slice(0, 10).join(', ')}${skipped.length > 10 ? ', …' : ''}`,
    );
  }
  return out;
}

function refuseInterim(file: string, line: number): never {
  throw new StatementError(
    file,
    `line ${line}`,
    'an MT942 interim transaction report (entries not booked yet); recon reads booked statements only: ' +
      "import the day's MT940 statement, which carries the same entries booked",
  );
}

interface Pending {
  lines: string[];
  line: number;
  info: string[];
  ns: string[];
}

interface Draft {
  ref: string;
  account: string | null;
  number: string | null;
  currencies: Array<string | null>; // opening balances first, then closing and available ones
  /** :60F:/:60M: and :62F:/:62M: as written, with their lines (read once the file's decimal mark is known). */
  opening: Field | null;
  closing: Field | null;
  pending: Pending[];
  line: number;
}

const balanceCurrency = (value: string): string | null => /^[CD]\d{6}([A-Z]{3})/.exec(value.trim())?.[1] ?? null;

export function parseMt940(file: string, content: string): Statement[] {
  const notes: string[] = [];
  const drafts: Draft[] = [];
  let entries = 0;
  for (const fields of messages(file, content, notes)) {
    let draft: Draft | null = null;
    fields.forEach((f, k) => {
      const fail = (reason: string): never => {
        throw new StatementError(file, `line ${f.line} (:${f.tag}:)`, reason);
      };
      if (f.tag === '20') {
        draft = {
          ref: f.value.trim(),
          account: null,
          number: null,
          currencies: [],
          opening: null,
          closing: null,
          pending: [],
          line: f.line,
        };
        drafts.push(draft);
        return;
      }
      // a field after a message's end without a :20: of its own continues the statement before it
      draft ??= drafts[drafts.length - 1] ?? fail('before the :20: field that opens a statement');
      const d: Draft = draft!;
      const last = d.pending[d.pending.length - 1];
      switch (f.tag) {
        case '25': d.account = f.value.replace(/\n/g, '').trim(); break;
        case '28': case '28C': d.number = f.value.trim(); break;
        case '60': case '60F': case '60M': d.currencies.unshift(balanceCurrency(f.value)); d.opening ??= f; break;
        case '62': case '62F': case '62M': d.currencies.push(balanceCurrency(f.value)); d.closing ??= f; break;
        case '64': case '65': d.currencies.push(balanceCurrency(f.value)); break;
        case '61':
          if ((entries += 1) > MAX_ENTRIES) fail(`more than ${MAX_ENTRIES} entries in the file`);
          d.pending.push({ lines: f.value.split('\n'), line: f.line, info: [], ns: [] });
          break;
        case '86': if (last && /^(61|86|NS)$/.test(fields[k - 1]?.tag ?? '')) last.info.push(f.value); break;
        case 'NS': if (last) last.ns.push(f.value); break;
        default: break; // :21:, :90C:/:90D: and the like carry no entry
      }
    });
  }
  if (drafts.length === 0) throw new StatementError(file, 'line 1', 'no :20: statement in the file');
  const balanceAmount = (f: Field) => /^[CD]\d{6}[A-Z]{3}(.*)$/.exec(f.value.trim())?.[1] ?? '';
  const style = decimalMarkOf(
    file,
    drafts.flatMap((d) => [
      ...[d.opening, d.closing]
        .filter((f): f is Field => f !== null)
        .map((f) => ({ line: f.line, tag: f.tag, amount: balanceAmount(f) })),
      ...d.pending.map((p) => ({ line: p.line, tag: '61', amount: subfields(p.lines)?.m[5] ?? '' })),
    ]),
  );
  return drafts.map((d, k) => statementOf(file, d, k === 0 ? notes : [], style));
}

function statementOf(file: string, d: Draft, notes: string[], style: NumberStyle): Statement {
  const where = `line ${d.line} (:20:)`;
  if (!d.account) throw new StatementError(file, where, 'a statement without an :25: account');
  const rawAccount = d.account.replace(/^\/+/, '');
  const suffix = /^(.*\d)[\s/]*([A-Z]{3})$/.exec(rawAccount);
  const currency = d.currencies.find((c) => c !== null) ?? suffix?.[2] ?? null;
  // ING and Rabobank append the currency to the account (NL69INGB0123456789EUR): the account is what precedes it
  const account = suffix && suffix[2] === currency ? suffix[1]! : rawAccount;
  const legacyId = `mt940:${rawAccount}:${d.ref}:${d.number ?? ''}`;
  const entries = d.pending.map((p, i) => {
    if (!currency)
      throw new StatementError(
        file,
        `line ${p.line} (:61:)`,
        "no balance (:60F:, :62F:) gives the statement's currency",
      );
    return entryOf(file, p, account, currency, { statementId: legacyId, index: i }, style);
  });
  if (!d.closing) {
    throw new StatementError(
      file,
      where,
      'a statement without its closing balance (:62F: or :62M:): the statement is cut short',
    );
  }
  const balance = (f: Field | null): StatementBalance | null => (f ? balanceOf(file, f, style) : null);
  const opening = balance(d.opening);
  const closing = balance(d.closing);
  // SWIFT carries the previous statement's closing balance, with its date, as the opening balance: the
  // statement vouches for the days from that date to its closing balance's
  const period = { from: opening?.date ?? null, to: closing?.date ?? null };
  const bankStatementId = `${d.ref}/${d.number ?? ''}`;
  return {
    format: 'mt940',
    bankStatementId,
    account,
    entries,
    period,
    opening,
    closing,
    ...(notes.length ? { notes } : {}),
  };
}

/** The line's subfields; a :61: some banks wrap over two lines is read from the lines joined. */
function subfields(lines: string[]): { m: RegExpExecArray; used: number } | null {
  let found: { m: RegExpExecArray; used: number } | null = null;
  for (let used = 1; used <= Math.min(3, lines.length); used += 1) {
    const m = LINE_61.exec(lines.slice(0, used).join('').trim());
    if (m && m[6]) return { m, used };
    if (m && !found) found = { m, used };
  }
  return found;
}

function entryOf(
  file: string,
  p: Pending,
  account: string,
  currency: string,
  legacy: { statementId: string; index: number },
  style: NumberStyle,
): BankEntry {
  const fail = (reason: string): never => {
    throw new StatementError(file, `line ${p.line} (:61:)`, reason);
  };
  const parsed = subfields(p.lines);
  if (!parsed)
    fail(`"${clip(p.lines.join(' '), 60) ?? ''}" is not YYMMDD[MMDD]C|D|RC|RD[funds code]amount type reference`);
  const { m, used } = parsed!;
  const [, valueText, entryText, mark, , amountText, , refs] = m;
  const notes: string[] = [];
  const value = yymmdd(valueText!, fail, true);
  if (value.note) notes.push(value.note);
  let bookingDate = value.date;
  if (entryText && entryText.trim() !== '') {
    // the entry (booking) date has no year: the value date's, or the next or last one's across a new year
    const month = Number(entryText.slice(0, 2));
    const valueMonth = Number(value.date.slice(5, 7));
    let year = Number(value.date.slice(0, 4));
    if (month < valueMonth - 6) year += 1;
    if (month > valueMonth + 6) year -= 1;
    const entry = yymmdd(`${String(year).slice(2)}${entryText}`, fail, true);
    bookingDate = entry.date;
    if (entry.note) notes.push(entry.note.replace('the bank wrote', 'the entry date'));
  }
  // RC is the reversal of a credit (money leaves), RD the reversal of a debit (money comes back)
  const direction = mark === 'C' || mark === 'RD' ? 'credit' : 'debit';
  if (mark!.startsWith('R')) notes.push(`recon: ${mark}, a reversal, booked as a ${direction}`);
  const [customerText, ...bankParts] = (refs ?? '').split('//');
  const customerRef = customerText!.trim();
  const bankRef = bankParts.length > 0 ? bankParts.join('//').trim() : '';
  const supplementary = p.lines
    .slice(used)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(' ');
  const info = p.info.length > 0 ? information(p.info.join('\n')) : null;
  const legacyBank = /\/\/(.*)$/.exec(p.lines[0]!.trim())?.[1];
  return {
    bankRef: NO_REF.test(bankRef) ? null : clip(bankRef, 200),
    account,
    bookingDate,
    valueDate: value.date,
    amount: amountOf(amountText!, currency, fail, style),
    currency,
    direction,
    endToEndId: info?.endToEndId ?? (NO_REF.test(customerRef) ? null : clip(customerRef)),
    remittance: info?.remittance ?? clip(supplementary),
    counterparty: info?.counterparty ?? null,
    batch: null,
    raw: [`:61:${p.lines.join('\n')}`, ...p.info.map((t) => `:86:${t}`), ...p.ns.map((t) => `:NS:${t}`), ...notes]
      .join('\n')
      .slice(0, MAX_RAW),
    legacy: {
      statementId: legacy.statementId,
      entryRef: legacyBank ? `r:${clip(legacyBank, 200)}` : `i:${legacy.index + 1}`,
    },
  };
}
