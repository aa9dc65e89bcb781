// The Bank sheets (#17): for each disbursement whether the money arrived (settled by which credit,
// awaiting a statement, or unsettled), and the provider's credits that settled nothing, with what they
// most likely are. Shared by the exception workbook and the monthly close.
import { DATE_FORMAT, setAmount, setDate, setText } from './cells.js';
import { writeTableSheet, type ColumnSpec } from './table-sheet.js';
import type { BankCreditRow, BankRow, RowSource } from './types.js';
import type { StreamingWorkbook } from './workbook-file.js';

const STATUS_TEXT: Record<BankRow['status'], string> = {
  settled: 'settled',
  'awaiting statement': 'awaiting statement',
  unsettled: 'NOT ARRIVED',
};

export const BANK_COLUMNS: ReadonlyArray<ColumnSpec<BankRow>> = [
  { header: 'Disbursement', width: 17, write: (c, r) => setText(c, r.disbursementId) },
  { header: 'Delivered at (UTC)', width: 17, write: (c, r) => setDate(c, r.deliveredAt) },
  { header: 'Currency', width: 9, write: (c, r) => setText(c, r.currency) },
  { header: 'Amount', numeric: true, width: 15, write: (c, r) => setAmount(c, r.amount, r.currency) },
  { header: 'Bank status', width: 18, write: (c, r) => setText(c, STATUS_TEXT[r.status]) },
  { header: 'Credited on', width: 12, write: (c, r) => (r.creditedOn ? setDate(c, r.creditedOn, DATE_FORMAT) : undefined) },
  { header: 'Matched by', width: 16, write: (c, r) => setText(c, r.byReference === null ? null : r.byReference ? 'reference' : 'amount and date') },
  { header: 'Account', width: 24, write: (c, r) => setText(c, r.account) },
  { header: 'Statement', width: 30, print: false, write: (c, r) => setText(c, r.statementId) },
];

const REASON_TEXT: Record<string, string> = {
  amount_differs: 'names a disbursement, another amount',
  duplicate: 'second credit for a settled disbursement',
  account_mismatch: 'another account than the disbursement\'s',
  unexpected: 'from the provider, matches nothing',
};

export const CREDIT_COLUMNS: ReadonlyArray<ColumnSpec<BankCreditRow>> = [
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

export async function writeBankSheets(workbook: StreamingWorkbook, bank: { disbursements: RowSource<BankRow>; credits: RowSource<BankCreditRow> }): Promise<void> {
  await writeTableSheet(workbook, 'Bank', BANK_COLUMNS, bank.disbursements);
  await writeTableSheet(workbook, 'Unmatched credits', CREDIT_COLUMNS, bank.credits);
}
