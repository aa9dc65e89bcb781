// Month-end journal from the close lines, one balanced set of entries per currency.
//
// The books are the recipient's: what the payments service settled is income cleared through a
// clearing account, and the disbursement is cash arriving in the bank. Per currency, summed over
// recipients (all amounts integer subunits, all components non-negative magnitudes):
//
//   Dr Bank                        disbursed total            cash that actually arrived
//   Dr Bank charges                (with statements) what the bank kept of a credit, within the tolerance
//   Dr Refunds                     refunds                    sales given back
//   Dr Fees and debit adjustments  debit adjustments          what the service kept
//   Cr Payments clearing           payouts                    gross sales settled
//   Cr Credit adjustments          credit adjustments         what the service added
//   Dr/Cr Reconciliation suspense  |variance|                 Cr when more cash arrived than computed
//
// Debits − credits = disbursed − (payouts − refunds + credit − debit adj.) − variance = 0, because
// variance = disbursed − computed net. So every currency balances exactly, and any unexplained money
// sits visibly on suspense instead of being folded into another account.
import type { CloseLine, JournalEntry, JournalRole, SuspenseLine } from './types.js';
import type { MoneyShape } from '../money.js';

export type { JournalRole };
import type { BankSplitRow } from '../store/read/summaries.js';

/**
 * The role of each journal line and recon's name for its account. A chart of accounts (recon close --accounts)
 * maps each role, per currency or for all (*), to the code and name of an account in the user's books; the
 * Journal sheet and every journal file carry both. `rounding` takes what rounding to the currency's ISO 4217
 * decimals leaves (src/close/precision.ts); buildJournal itself never uses it.
 */
export const ROLES = {
  bank: 'Bank',
  cash_in_transit: 'Cash in transit',
  bank_suspense: 'Bank suspense',
  bank_charges: 'Bank charges',
  refunds: 'Refunds',
  fees: 'Fees and debit adjustments',
  clearing: 'Payments clearing',
  credit_adjustments: 'Credit adjustments',
  suspense: 'Reconciliation suspense',
  rounding: 'Rounding',
} as const satisfies Record<JournalRole, string>;
export const JOURNAL_ROLES = Object.keys(ROLES) as JournalRole[];

/** A line of role `role` in `currency`, named with recon's account name. */
export function journalLine(
  currency: string,
  role: JournalRole,
  description: string,
  debit: bigint,
  credit: bigint,
): JournalEntry {
  return { currency, role, account: ROLES[role], description, debit, credit };
}

interface CurrencyTotals extends MoneyShape {
  disbursedTotal: bigint;
  variance: bigint;
}

/**
 * Balanced journal entries per currency, currencies in code order. Throws on an inconsistent line.
 * Lines held in suspense (another currency than their disbursement's) are booked in their own currency
 * against Reconciliation suspense, never added to the disbursement's currency.
 */
export function buildJournal(
  lines: readonly CloseLine[],
  suspense: readonly SuspenseLine[] = [],
  bank?: ReadonlyMap<string, BankSplit>,
): JournalEntry[] {
  const totals = new Map<string, CurrencyTotals>();
  for (const line of lines) {
    checkLine(line);
    const t = totals.get(line.currency) ?? {
      payouts: 0n,
      refunds: 0n,
      credits: 0n,
      debits: 0n,
      disbursedTotal: 0n,
      variance: 0n,
    };
    t.payouts += line.payouts;
    t.refunds += line.refunds;
    t.credits += line.credits;
    t.debits += line.debits;
    t.disbursedTotal += line.disbursedTotal;
    t.variance += line.variance;
    totals.set(line.currency, t);
  }
  const held = suspenseByCurrency(suspense);
  const currencies = [...new Set([...totals.keys(), ...held.keys()])].sort();
  return currencies.flatMap((currency) => [
    ...(totals.has(currency) ? entriesFor(currency, totals.get(currency)!, bank?.get(currency)) : []),
    ...(held.has(currency) ? suspenseEntries(currency, held.get(currency)!) : []),
  ]);
}

type HeldTotals = MoneyShape;

function suspenseByCurrency(suspense: readonly SuspenseLine[]): Map<string, HeldTotals> {
  const out = new Map<string, HeldTotals>();
  for (const s of suspense) {
    const t = out.get(s.currency) ?? { payouts: 0n, refunds: 0n, credits: 0n, debits: 0n };
    if (s.kind === 'payout') t.payouts += s.amount;
    else if (s.kind === 'refund') t.refunds += s.amount;
    else if (s.entryType === 'credit') t.credits += s.amount;
    else if (s.entryType === 'debit') t.debits += s.amount;
    out.set(s.currency, t);
  }
  return out;
}

/** Lines settled inside disbursements of another currency: booked as such, the net held on suspense. */
function suspenseEntries(currency: string, t: HeldTotals): JournalEntry[] {
  const entry = (role: JournalRole, description: string, debit: bigint, credit: bigint) =>
    journalLine(currency, role, description, debit, credit);
  const where = 'in disbursements of another currency';
  const net = t.payouts + t.credits - t.refunds - t.debits;
  return [
    entry('clearing', `Payouts ${where}`, 0n, t.payouts),
    entry('credit_adjustments', `Credit adjustments ${where}`, 0n, t.credits),
    entry('refunds', `Refunds ${where}`, t.refunds, 0n),
    entry('fees', `Debit adjustments ${where}`, t.debits, 0n),
    entry('suspense', `Held: lines ${where} (see Currency suspense)`, net > 0n ? net : 0n, net < 0n ? -net : 0n),
  ].filter((e) => e.debit !== 0n || e.credit !== 0n);
}

/** What the bank statements say of a currency's disbursements of the month (src/store/read/summaries.ts). */
type BankSplit = BankSplitRow;

/**
 * The debit side of the cash: with bank statements, Bank holds only what credits show arrived and each
 * other part of the disbursed total sits on a named account with its cause; without them, Bank takes the
 * provider's disbursed total. Either way the lines add up to the disbursed total (anything the split does
 * not explain goes to Bank suspense as such), so the currency still balances.
 */
function cashEntries(currency: string, disbursed: bigint, split: BankSplit | undefined): JournalEntry[] {
  const line = (role: JournalRole, description: string, amount: bigint): JournalEntry =>
    amount >= 0n
      ? journalLine(currency, role, description, amount, 0n)
      : journalLine(currency, role, description, 0n, -amount);
  if (!split)
    return [line('bank', "Disbursements received (the provider's figure: no bank statement imported)", disbursed)];
  const unproven = split.unproven ?? 0n;
  const explained =
    split.settled +
    split.bankCharges +
    split.shortCredited +
    split.shortBy +
    split.otherAccount +
    split.awaiting +
    split.notArrived +
    unproven;
  return [
    line(
      'bank',
      'Settled: disbursements received, matched to bank credits (also fee deducted, part of a batch credit, and ' +
        'what short credits brought)',
      split.settled + split.shortCredited,
    ),
    line('bank_charges', "Kept by the bank from the provider's credits (bank_fee; see Bank)", split.bankCharges),
    line(
      'bank_suspense',
      'Short: credited less than disbursed (fees or FX deducted; negative when over; see Bank)',
      split.shortBy,
    ),
    line(
      'bank_suspense',
      "On another account: credited to another account than the disbursement's (see Bank)",
      split.otherAccount,
    ),
    line('bank_suspense', 'Not arrived: no credit although statements cover the window (see Bank)', split.notArrived),
    line(
      'bank_suspense',
      'Credited on an unbalanced statement: its balances do not prove its entries (see Bank)',
      unproven,
    ),
    line('cash_in_transit', 'Awaiting statement: no bank statement covers the window yet', split.awaiting),
    line('bank_suspense', 'Disbursed but not explained by the statements', disbursed - explained),
    ...movementEntries(currency, split),
  ].filter((e, i) => i === 0 || e.debit !== 0n || e.credit !== 0n);
}

/**
 * Every entry the statements booked in the month reaches the journal: the credits that settled nothing,
 * each by reason, on Bank against Bank suspense (money in the bank that is not the provider's settlement:
 * to return, to ask about); the debits on Bank against Bank charges; and whatever still separates Bank
 * from the statements' movement of the month (credits of disbursements delivered in another month, or on
 * another account) on a named Bank suspense line. So the Bank lines add up to the statements' movement.
 */
function movementEntries(currency: string, split: BankSplit): JournalEntry[] {
  // a split read without the month's movement (undefined) books none; read with it and nothing booked (null), the
  // matched credits were booked in another month and the difference line says so
  if (split.movement === undefined) return [];
  const m = split.movement;
  const matched = split.settled + split.shortCredited;
  if (!m && matched === 0n) return [];
  const pair = (
    debitRole: JournalRole,
    creditRole: JournalRole,
    description: string,
    amount: bigint,
  ): JournalEntry[] => {
    const [dr, cr] = amount >= 0n ? [debitRole, creditRole] : [creditRole, debitRole];
    const v = amount >= 0n ? amount : -amount;
    return [journalLine(currency, dr, description, v, 0n), journalLine(currency, cr, description, 0n, v)];
  };
  const moved = m ?? { credits: 0n, debits: 0n, duplicate: 0n, unexpected: 0n, otherCredits: 0n };
  const booked = matched + moved.duplicate + moved.unexpected + moved.otherCredits - moved.debits;
  const held = (description: string, amount: bigint) => pair('bank', 'bank_suspense', description, amount);
  return [
    ...held(
      'Credited twice: second credits for settled disbursements, to return (see Unmatched credits)',
      moved.duplicate,
    ),
    ...held('From the provider, matching no disbursement (see Unmatched credits)', moved.unexpected),
    ...held('Credited by others than the provider (see Unmatched credits)', moved.otherCredits),
    ...pair(
      'bank_charges',
      'bank',
      'Debited on the statements of the month (account fees and other debits)',
      moved.debits,
    ),
    ...held(
      'Statement movement of the month not matched to its disbursements (credits of disbursements of another month, ' +
        'or on another account; see Bank)',
      moved.credits - moved.debits - booked,
    ),
  ];
}

function entriesFor(currency: string, t: CurrencyTotals, split?: BankSplit): JournalEntry[] {
  const dr = (role: JournalRole, description: string, amount: bigint) =>
    journalLine(currency, role, description, amount, 0n);
  const cr = (role: JournalRole, description: string, amount: bigint) =>
    journalLine(currency, role, description, 0n, amount);
  const entries = [
    ...cashEntries(currency, t.disbursedTotal, split),
    dr('refunds', 'Refunds deducted from disbursements', t.refunds),
    dr('fees', 'Fees and debit adjustments deducted', t.debits),
    cr('clearing', 'Gross sales settled (payouts)', t.payouts),
    cr('credit_adjustments', 'Credit adjustments added', t.credits),
  ];
  if (t.variance > 0n) entries.push(cr('suspense', 'Disbursed more than computed', t.variance));
  if (t.variance < 0n) entries.push(dr('suspense', 'Disbursed less than computed', -t.variance));
  // The bank line stays even at zero so every currency shows where its cash went.
  return entries.filter((e) => e.role === 'bank' || e.debit !== 0n || e.credit !== 0n);
}

/** The sign conventions above only hold if the line agrees with them; a mismatch is a bug upstream. */
function checkLine(line: CloseLine): void {
  const where = `close line ${line.recipientId} ${line.currency}`;
  for (const field of ['payouts', 'refunds', 'credits', 'debits'] as const) {
    if (line[field] < 0n) {
      throw new Error(`${where}: ${field} is ${line[field]}; buildJournal expects non-negative magnitudes`);
    }
  }
  const net = line.payouts - line.refunds + line.credits - line.debits;
  if (line.computedNet !== net) {
    throw new Error(
      `${where}: computedNet ${line.computedNet} ≠ payouts − refunds + credits − debits (${net})`,
    );
  }
  if (line.variance !== line.disbursedTotal - line.computedNet) {
    throw new Error(
      `${where}: variance ${line.variance} ≠ disbursedTotal − computedNet (${line.disbursedTotal - line.computedNet})`,
    );
  }
}

export interface CurrencyBalance {
  currency: string;
  debit: bigint;
  credit: bigint;
  balanced: boolean;
}

/** Debit and credit totals per currency, in first-seen order, with integer arithmetic only. */
export function journalBalances(journal: readonly JournalEntry[]): CurrencyBalance[] {
  const sums = new Map<string, { debit: bigint; credit: bigint }>();
  for (const entry of journal) {
    const s = sums.get(entry.currency) ?? { debit: 0n, credit: 0n };
    s.debit += entry.debit;
    s.credit += entry.credit;
    sums.set(entry.currency, s);
  }
  return [...sums].map(([currency, s]) => ({ currency, ...s, balanced: s.debit === s.credit }));
}

/** Throws unless every currency's debits equal its credits and no amount is negative. */
export function assertJournalBalanced(journal: readonly JournalEntry[]): CurrencyBalance[] {
  const negative = journal.find((e) => e.debit < 0n || e.credit < 0n);
  if (negative) {
    throw new Error(
      `journal entry ${negative.currency} "${negative.account}" has a negative amount; post it on the other side`,
    );
  }
  const balances = journalBalances(journal);
  const off = balances.filter((b) => !b.balanced);
  if (off.length > 0) {
    const detail = off.map((b) => `${b.currency} debits ${b.debit} ≠ credits ${b.credit}`).join('; ');
    throw new Error(`journal is not balanced (${detail} subunits); the close workbook was not written`);
  }
  return balances;
}
