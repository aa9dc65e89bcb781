// The Bank sheets: for each disbursement what the statements say of its money, in the one vocabulary of bank_status.sql
// (settled, fee deducted, part of a batch credit, short by, over by, credited in another currency, on another account,
// credited on an unbalanced statement, awaiting statement with the first day no statement covers, not arrived, no
// statements), the provider's credits that settled nothing, with what they most likely are, and, above the table, the
// statement files the run could not read. Shared by the exception workbook and the monthly close.
import { formatMajor } from '../money.js';
import { DATE_FORMAT, setAmount, setDate, setText } from './cells.js';
import type { ColumnSpec } from './table-sheet.js';
import { writeListTableSheet, type SheetRoom } from './list-sheet.js';
import type { BankCreditRow, BankRow, BankSheets } from './types.js';
import type { StreamingWorkbook } from './workbook-file.js';

/**
 * A disbursement's bank status in the words of bank_status.sql, with the amount where the words
 * need one: "short by 29.06 EUR", "over by 1.00 EUR", "fee deducted (15.00 EUR)". The Bank sheets of the
 * exceptions workbook and of the close both write it through here.
 */
function bankStatusText(
  r: Pick<BankRow, 'status' | 'bankDifference' | 'fee' | 'currency' | 'uncoveredOn'>,
): string {
  const amount = (v: bigint) => `${formatMajor(v < 0n ? -v : v, r.currency)} ${r.currency}`;
  if ((r.status === 'short' || r.status === 'over') && r.bankDifference !== null)
    return `${r.status} by ${amount(r.bankDifference)}`;
  if (r.status === 'fee deducted' && r.fee) return `fee deducted (${amount(r.fee)}, within tolerance)`;
  if (r.status === 'awaiting statement' && r.uncoveredOn)
    return `awaiting statement (no statement covers ${r.uncoveredOn.toISOString().slice(0, 10)})`;
  return r.status;
}

/** How a settled disbursement was matched, in words. */
function matchedBy(r: Pick<BankRow, 'byReference' | 'matchKind' | 'batchSize'>): string | null {
  if (r.byReference === null) return null;
  const how = r.byReference ? 'reference' : 'amount and date';
  if (r.matchKind === 'batch') return `batch of ${r.batchSize ?? '?'}, ${r.byReference ? 'by reference' : 'by sum'}`;
  if (r.matchKind === 'fee') return `${how}, less bank fee`;
  return how;
}

const BANK_COLUMNS: ReadonlyArray<ColumnSpec<BankRow>> = [
  { header: 'Disbursement', width: 17, write: (c, r) => setText(c, r.disbursementId) },
  { header: 'Delivered at (UTC)', width: 17, write: (c, r) => setDate(c, r.deliveredAt) },
  { header: 'Currency', width: 9, write: (c, r) => setText(c, r.currency) },
  { header: 'Amount', numeric: true, width: 15, write: (c, r) => setAmount(c, r.amount, r.currency) },
  { header: 'Bank status', width: 26, wrap: true, write: (c, r) => setText(c, bankStatusText(r)) },
  {
    header: 'Credited on',
    width: 12,
    write: (c, r) => (r.creditedOn ? setDate(c, r.creditedOn, DATE_FORMAT) : undefined),
  },
  { header: 'Matched by', width: 22, write: (c, r) => setText(c, matchedBy(r)) },
  {
    header: 'Bank fee',
    numeric: true,
    width: 11,
    write: (c, r) => (r.fee ? setAmount(c, r.fee, r.currency) : undefined),
  },
  { header: 'Account', width: 24, write: (c, r) => setText(c, r.account) },
  {
    header: 'Credit',
    numeric: true,
    width: 15,
    print: false,
    write: (c, r) => (r.matchKind && r.matchKind !== 'single' ? setAmount(c, r.creditAmount, r.currency) : undefined),
  },
  { header: 'Statement', width: 30, print: false, write: (c, r) => setText(c, r.statementId) },
];

const REASON_TEXT: Record<string, string> = {
  amount_differs: 'names a disbursement, another amount',
  duplicate: 'second credit for a settled disbursement',
  account_mismatch: 'another account than the disbursement\'s',
  unexpected: 'from the provider, matches nothing',
  other: 'not from the provider',
};

const CREDIT_COLUMNS: ReadonlyArray<ColumnSpec<BankCreditRow>> = [
  { header: 'Credited on', width: 12, write: (c, r) => setDate(c, r.creditedOn, DATE_FORMAT) },
  { header: 'Currency', width: 9, write: (c, r) => setText(c, r.currency) },
  { header: 'Amount', numeric: true, width: 15, write: (c, r) => setAmount(c, r.amount, r.currency) },
  { header: 'What it is', width: 34, wrap: true, write: (c, r) => setText(c, REASON_TEXT[r.reason] ?? r.reason) },
  { header: 'Disbursement named', width: 17, write: (c, r) => setText(c, r.disbursementId) },
  { header: 'Counterparty', width: 22, write: (c, r) => setText(c, r.counterparty) },
  { header: 'Remittance', width: 34, wrap: true, write: (c, r) => setText(c, r.remittance) },
  { header: 'Account', width: 24, print: false, write: (c, r) => setText(c, r.account) },
  { header: 'File', width: 28, print: false, write: (c, r) => setText(c, r.fileName) },
];

/** The Bank sheet; files the run refused are named in lines above the table (the header row follows them). */
async function writeBankSheet(workbook: StreamingWorkbook, room: SheetRoom, bank: BankSheets): Promise<void> {
  const refused = bank.refusedFiles ?? [];
  const above =
    refused.length === 0
      ? []
      : [
          `${refused.length} statement file${refused.length === 1 ? '' : 's'} refused by this run (nothing of ` +
            `${refused.length === 1 ? 'it' : 'them'} imported; fix or remove, the others were imported):`,
          ...refused,
        ];
  await writeListTableSheet(workbook, room, 'Bank', BANK_COLUMNS, bank.disbursements, {
    above,
    whole: 'recon sql "SELECT * FROM bank_status"',
  });
}

export async function writeBankSheets(workbook: StreamingWorkbook, room: SheetRoom, bank: BankSheets): Promise<void> {
  await writeBankSheet(workbook, room, bank);
  await writeListTableSheet(workbook, room, 'Unmatched credits', CREDIT_COLUMNS, bank.credits,
    { whole: 'recon sql "SELECT * FROM bank_unmatched_credits"' });
}
