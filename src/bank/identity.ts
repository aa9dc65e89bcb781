// Identity of statements and entries. A statement is named by its format, its account and the
// bank's own statement id, so two accounts' statements never share a name. An entry is identified within
// its account by what it is, never by its position in a file: its day, direction, amount and currency,
// the bank's reference of it (or, without one, what it says), and its occurrence among identical entries
// of that day in the file. So two days' exports that reuse a statement number (German STARTUMS / 00000)
// keep every entry, and importing a file again, or an export overlapping an earlier one, adds nothing.
// Two identical entries of one day in two different files (no bank reference, same text) are one entry:
// the price of recognising an overlapping export.
import { createHash } from 'node:crypto';
import { clip, type BankEntry, type Statement } from './statement.js';

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

interface IdentifiedEntry extends BankEntry {
  /** The entry within its account: `<day>:<C|D><amount><currency>:<reference hash>:<occurrence>`. */
  entryKey: string;
}

export interface IdentifiedStatement extends Omit<Statement, 'entries'> {
  /** A hash of the full account (the account itself is stored masked). */
  accountKey: string;
  statementId: string;
  entries: IdentifiedEntry[];
}

export const accountKey = (account: string): string =>
  sha256(`account:${account.replace(/\s+/g, '').toUpperCase()}`).slice(0, 24);

export function identify(statements: readonly Statement[]): IdentifiedStatement[] {
  const occurrences = new Map<string, number>();
  return statements.map((s) => {
    const key = accountKey(s.account);
    const entries = s.entries.map((e): IdentifiedEntry => {
      const day = e.bookingDate ?? e.valueDate ?? '-';
      const refs = e.bankRef !== null
        ? ['bank', e.bankRef, e.valueDate, e.endToEndId]
        : ['content', e.valueDate, e.endToEndId, e.remittance, e.counterparty, e.batch];
      const side = e.direction === 'credit' ? 'C' : 'D';
      const base = `${day}:${side}${e.amount}${e.currency}:${sha256(JSON.stringify(refs)).slice(0, 16)}`;
      const n = (occurrences.get(`${key}|${base}`) ?? 0) + 1;
      occurrences.set(`${key}|${base}`, n);
      return { ...e, entryKey: `${base}:${n}` };
    });
    return {
      ...s,
      accountKey: key,
      statementId: `${s.format}:${key.slice(0, 12)}:${clip(s.bankStatementId, 200) ?? ''}`,
      entries,
    };
  });
}
