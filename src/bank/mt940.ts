// SWIFT MT940 (customer statement message): tagged lines, one message per statement. Read here: :20:
// (transaction reference), :25: (account), :28C: (statement number), :60F:/:60M: (opening balance, which
// gives the currency), every :61: statement line (value date YYMMDD, optional entry date MMDD, C/D or
// RC/RD, an optional funds code, the amount with a decimal comma, the transaction type, the reference
// for the account owner and after // the bank's reference) with the :86: that follows it (structured
// /EREF/ /REMI/ /NAME/ or /ORDP/ codes when present, else free text), and :62F:/:62M: (closing balance).
// SWIFT envelope blocks ({1:…}{4: … -}) are accepted around a message.
import { isCalendarDate } from '../month.js';
import { MAX_ENTRIES, MAX_RAW, StatementError, amountOf, clip, type BankEntry, type Statement } from './statement.js';

const TAG = /^:(\d{2}[A-Z]?|[A-Z]{2}):(.*)$/;
const LINE_61 = /^(\d{2})(\d{2})(\d{2})(\d{4})?(RC|RD|C|D)([A-Z])?(\d[\d,]*)([NFS][A-Z0-9]{3})([^/]*?)(?:\/\/(.*))?$/;

export function isMt940(content: string): boolean {
  const head = content.slice(0, 2048);
  return /(^|\n):20:/.test(head) && /(^|\n):25:/.test(head);
}

interface Field {
  tag: string;
  value: string;
  line: number;
}

/** Tagged fields with their first line number; continuation lines join their field. */
function fields(file: string, content: string): Field[] {
  const out: Field[] = [];
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((raw, i) => {
    let line = raw.replace(/^\{1:[^}]*\}(\{2:[^}]*\})?(\{3:[^}]*\})?\{4:/, '').replace(/-\}.*$/, '');
    if (line.trim() === '' || line.trim() === '-' || line.startsWith('{')) return;
    const m = TAG.exec(line);
    if (m) {
      out.push({ tag: m[1]!, value: m[2]!, line: i + 1 });
      return;
    }
    const last = out[out.length - 1];
    if (!last) throw new StatementError(file, `line ${i + 1}`, 'text before the first :20: field');
    line = line.trimEnd();
    last.value += `\n${line}`;
  });
  return out;
}

/**
 * Structured :86: codes (/EREF/…/REMI/…), the German subfield style (?00 booking text, ?20–?29 remittance
 * with SEPA keywords such as EREF+ inside, ?32–?33 the other party's name), or free text.
 */
function information(text: string): { endToEndId: string | null; remittance: string | null; counterparty: string | null } {
  const flat = text.replace(/\n/g, '');
  if (/^\d{3}\?\d{2}|^\?\d{2}/.test(flat)) {
    const sub = new Map<string, string>();
    for (const m of flat.matchAll(/\?(\d{2})([^?]*)/g)) sub.set(m[1]!, `${sub.get(m[1]!) ?? ''}${m[2]!}`);
    const remittance = ['20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '60', '61', '62', '63'].map((k) => sub.get(k) ?? '').join('');
    const eref = /EREF\+(\S+?)(?=[A-Z]{4}\+|$)/.exec(remittance)?.[1] ?? null;
    return { endToEndId: clip(eref), remittance: clip(remittance), counterparty: clip(`${sub.get('32') ?? ''}${sub.get('33') ?? ''}`) };
  }
  if (/^\/[A-Z]{2,4}\//.test(flat)) {
    const codes = new Map<string, string>();
    for (const m of flat.matchAll(/\/([A-Z]{2,4})\/(.*?)(?=\/[A-Z]{2,4}\/|$)/g)) codes.set(m[1]!, m[2]!);
    return {
      endToEndId: clip(codes.get('EREF')),
      remittance: clip(codes.get('REMI') ?? codes.get('USTD') ?? null),
      counterparty: clip(codes.get('NAME') ?? codes.get('ORDP') ?? codes.get('BENM') ?? null),
    };
  }
  return { endToEndId: null, remittance: clip(text), counterparty: null };
}

export function parseMt940(file: string, content: string): Statement[] {
  const statements: Statement[] = [];
  let current: { ref: string; account: string | null; number: string | null; currency: string | null; entries: BankEntry[]; line: number } | null = null;
  let total = 0;
  const finish = () => {
    if (!current) return;
    if (!current.account) throw new StatementError(file, `line ${current.line}`, 'statement without an :25: account');
    statements.push({ format: 'mt940', statementId: `mt940:${current.account}:${current.ref}:${current.number ?? ''}`, account: current.account, entries: current.entries });
  };
  for (const f of fields(file, content)) {
    const fail = (reason: string): never => {
      throw new StatementError(file, `line ${f.line} (:${f.tag}:)`, reason);
    };
    switch (f.tag) {
      case '20':
        finish();
        current = { ref: f.value.trim(), account: null, number: null, currency: null, entries: [], line: f.line };
        break;
      case '25':
        if (!current) fail('before :20:');
        current!.account = f.value.trim().replace(/^\/+/, '');
        break;
      case '28C':
        if (!current) fail('before :20:');
        current!.number = f.value.trim();
        break;
      case '60F':
      case '60M': {
        if (!current) fail('before :20:');
        const m = /^[CD]\d{6}([A-Z]{3})[\d,]+$/.exec(f.value.trim());
        if (!m) fail(`opening balance "${clip(f.value, 40) ?? ''}" is not C|D YYMMDD CCY amount`);
        current!.currency = m![1]!;
        break;
      }
      case '61': {
        if (!current?.currency) fail('a statement line before the opening balance (:60F:) that gives its currency');
        if ((total += 1) > MAX_ENTRIES) fail(`more than ${MAX_ENTRIES} entries`);
        const [first, ...rest] = f.value.split('\n');
        const m = LINE_61.exec(first!.trim());
        if (!m) fail(`"${clip(first, 60) ?? ''}" is not YYMMDD[MMDD]C|D amount type reference`);
        const [, yy, mm, dd, entry, mark, , amountText, , customerRef, bankRef] = m!;
        const valueDate = `20${yy}-${mm}-${dd}`;
        if (!isCalendarDate(valueDate)) fail(`value date ${valueDate} does not exist`);
        // the entry (booking) date has no year: the value date's, or the next one's across a new year
        let bookingDate: string | null = null;
        if (entry) {
          let year = Number(`20${yy}`);
          if (Number(entry.slice(0, 2)) < Number(mm) - 6) year += 1;
          if (Number(entry.slice(0, 2)) > Number(mm) + 6) year -= 1;
          bookingDate = `${year}-${entry.slice(0, 2)}-${entry.slice(2)}`;
        }
        const direction = mark === 'C' || mark === 'RD' ? 'credit' : 'debit';
        current!.entries.push({
          entryRef: bankRef ? `r:${clip(bankRef, 200)}` : `i:${current!.entries.length + 1}`,
          account: current!.account ?? fail('a statement line before the :25: account'),
          bookingDate: bookingDate ?? valueDate,
          valueDate,
          amount: amountOf(amountText!, current!.currency!, fail, true),
          currency: current!.currency!,
          direction,
          endToEndId: null,
          remittance: null,
          counterparty: null,
          raw: `:61:${f.value}`.slice(0, MAX_RAW),
        });
        if (customerRef && customerRef.trim() !== '' && customerRef.trim() !== 'NONREF') {
          current!.entries[current!.entries.length - 1]!.endToEndId = clip(customerRef);
        }
        void rest;
        break;
      }
      case '86': {
        const last = current?.entries[current.entries.length - 1];
        if (!last) break; // information on the statement as a whole
        const info = information(f.value);
        last.endToEndId = info.endToEndId ?? last.endToEndId;
        last.remittance = info.remittance;
        last.counterparty = info.counterparty;
        last.raw = `${last.raw}\n:86:${f.value}`.slice(0, MAX_RAW);
        break;
      }
      case '28':
        if (!current) fail('before :20:');
        current!.number = f.value.trim();
        break;
      default:
        // closing and available balances (:62F: :64: :65:), :21:, :13D:, :34F:, :90D:/:90C:, and fields a
        // bank adds of its own: they carry no entry
        break;
    }
  }
  finish();
  if (statements.length === 0) throw new StatementError(file, 'line 1', 'no :20: statement in the file');
  return statements;
}
