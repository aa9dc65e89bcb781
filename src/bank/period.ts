// What a statement vouches for: the days it covers and whether its balances prove its entries. The period
// is the one the statement declares (camt FrToDt, MT940 balance dates, BAI2 as-of date), widened to the
// days of its balances and entries; a statement that declares none (a CSV export) covers the days from its
// first entry to its last. The balance proof is the accountant's: opening + credits − debits = closing, in
// the statement's currency; a statement without both balances proves nothing and says so ('no balances').
import type { Statement, StatementBalance } from './statement.js';

type BalanceProof = 'balanced' | 'unbalanced' | 'no balances';

interface StatementFacts {
  currency: string | null;
  periodFrom: string | null;
  periodTo: string | null;
  opening: StatementBalance | null;
  closing: StatementBalance | null;
  credits: bigint;
  debits: bigint;
  entries: number;
  proof: BalanceProof;
  /** closing − (opening + credits − debits), when both balances are stated. */
  difference: bigint | null;
}

const earliest = (days: Array<string | null | undefined>) => days.filter((d): d is string => !!d).sort()[0] ?? null;
const latest = (days: Array<string | null | undefined>) => days.filter((d): d is string => !!d).sort().at(-1) ?? null;

export function factsOf(s: Pick<Statement, 'entries' | 'period' | 'opening' | 'closing'>): StatementFacts {
  const opening = s.opening ?? null;
  const closing = s.closing ?? null;
  const currency = opening?.currency ?? closing?.currency ?? s.entries[0]?.currency ?? null;
  let credits = 0n;
  let debits = 0n;
  let foreign = false;
  for (const e of s.entries) {
    if (e.currency !== currency) foreign = true;
    else if (e.direction === 'credit') credits += e.amount;
    else debits += e.amount;
  }
  const days = s.entries.map((e) => e.bookingDate ?? e.valueDate);
  const periodFrom = earliest([s.period?.from ?? opening?.date, ...days]);
  const periodTo = latest([s.period?.to ?? closing?.date, ...days]);
  let proof: BalanceProof = 'no balances';
  let difference: bigint | null = null;
  if (opening && closing && opening.currency === closing.currency) {
    difference = closing.amount - (opening.amount + credits - debits);
    // an entry in another currency than the balances' cannot be proven by them
    proof = difference === 0n && !foreign ? 'balanced' : 'unbalanced';
  }
  const entries = s.entries.length;
  return { currency, periodFrom, periodTo, opening, closing, credits, debits, entries, proof, difference };
}
