// The monthly close workbook: per recipient × currency summary, the month's disbursements, the
// findings still open, and a journal that is proven balanced before anything is written. A month may hold
// more disbursements than a sheet: a list shows its first rows and goes whole to a CSV (list-sheet.ts).
import type ExcelJS from 'exceljs';
import { BOLD, setAmount, setCount, setDate, setText, styleHeader, styleTitle, type CellTarget } from './cells.js';
import { CLOSE_FINDING_COLUMNS, DISBURSEMENT_COLUMNS, DISBURSEMENTS_SHEET } from './columns.js';
import { assertJournalBalanced, type CurrencyBalance } from './journal.js';
import { addSheet, writeFields, writeHeaderRow, writeTable, type ColumnSpec } from './table-sheet.js';
import { roomBeside, writeListTableSheet } from './list-sheet.js';
import type { CloseInput, CloseLine, JournalEntry, SuspenseLine } from './types.js';
import { writeWorkbookFile, type StreamingWorkbook } from './workbook-file.js';
import { MONTH } from '../month.js';
import { writeMonthSheet } from './month-sheet.js';
import { writeBankSheets } from './bank-sheet.js';
import { currencyDecimals } from '../money.js';
import { writeCloseControls } from './close-controls.js';

export { buildJournal } from './journal.js';

interface WrittenCloseWorkbook {
  path: string;
  /** Why the close is provisional; empty when final. */
  provisional: string[];
  lines: number;
  disbursements: number;
  openFindings: number;
  journalEntries: number;
  /** The Journal sheet's lines, balanced per currency (the journal CSVs are written from them). */
  journal: readonly JournalEntry[];
}


/**
 * Writes the close workbook to `path` (temp file + rename). Throws before touching the file system
 * if the journal does not balance in every currency. `maxRows`: the rows a sheet may hold (Excel's limit;
 * tests give a small one).
 */
export async function writeCloseWorkbook(
  path: string,
  input: CloseInput,
  o: { maxRows?: number } = {},
): Promise<WrittenCloseWorkbook> {
  if (!MONTH.test(input.month)) throw new Error(`close month must be YYYY-MM, got "${input.month}"`);
  const balances = assertJournalBalanced(input.journal);
  const room = roomBeside(path, o.maxRows);
  return writeWorkbookFile(path, async (workbook) => {
    const lines = await writeSummarySheet(workbook, input);
    if (input.shape) await writeMonthSheet(workbook, input.shape, 'Month');
    const disbursements = (
      await writeListTableSheet(workbook, room, DISBURSEMENTS_SHEET, DISBURSEMENT_COLUMNS, input.disbursements, {
        whole: `recon sql "SELECT * FROM reconciliation WHERE month_of(delivered_at) = '${input.month}'"`,
      })
    ).count;
    const openFindings = (
      await writeListTableSheet(workbook, room, 'Open findings', CLOSE_FINDING_COLUMNS, input.openFindings, {
        whole: 'recon sql "SELECT * FROM open_exceptions"',
      })
    ).count;
    writeJournalSheet(workbook, input.journal, balances);
    if (input.suspense.length > 0) {
      await writeListTableSheet(workbook, room, 'Currency suspense', SUSPENSE_COLUMNS, input.suspense, {
        whole: 'recon sql "SELECT * FROM currency_suspense"',
      });
    }
    if (input.bank) await writeBankSheets(workbook, room, input.bank);
    return {
      path,
      provisional: input.provisional,
      lines,
      disbursements,
      openFindings,
      journalEntries: input.journal.length,
      journal: input.journal,
    };
  });
}

type LineColumn = ColumnSpec<CloseLine>;
const amount = (header: string, pick: (l: CloseLine) => bigint): LineColumn => ({
  header,
  numeric: true,
  width: Math.max(16, header.length + 3),
  write: (c, l) => setAmount(c, pick(l), l.currency),
});

const AMOUNT_COLUMNS: LineColumn[] = [
  { header: 'Disbursements', numeric: true, width: 15, write: (c, l) => setCount(c, l.disbursements) },
  amount('Payouts', (l) => l.payouts),
  amount('Refunds', (l) => l.refunds),
  amount('Credit adjustments', (l) => l.credits),
  amount('Debit adjustments', (l) => l.debits),
  amount('Computed net', (l) => l.computedNet),
  amount('Disbursed total', (l) => l.disbursedTotal),
  { header: 'Variance', numeric: true, width: 14, write: writeVariance },
];

const LINE_COLUMNS: LineColumn[] = [
  { header: 'Recipient', width: 22, write: (c, l) => setText(c, l.recipientId) },
  // Wide enough for the "Generated (UTC)" date that shares this column above the table.
  { header: 'Currency', width: 17, write: (c, l) => setText(c, l.currency) },
  ...AMOUNT_COLUMNS,
];

function writeVariance(cell: CellTarget, line: CloseLine): void {
  setAmount(cell, line.variance, line.currency);
  if (line.variance !== 0n) cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } };
}

const SUSPENSE_COLUMNS: Array<ColumnSpec<SuspenseLine>> = [
  { header: 'Disbursement', width: 20, write: (c, s) => setText(c, s.disbursementId) },
  { header: 'Recipient', width: 18, write: (c, s) => setText(c, s.recipientId) },
  { header: 'Disbursement currency', width: 12, write: (c, s) => setText(c, s.disbursementCurrency) },
  {
    header: 'Line',
    width: 12,
    write: (c, s) => setText(c, s.kind === 'adjustment' ? `${s.entryType ?? ''} adjustment` : s.kind),
  },
  { header: 'Reference', width: 24, write: (c, s) => setText(c, s.reference ?? '') },
  { header: 'Line currency', width: 10, write: (c, s) => setText(c, s.currency) },
  { header: 'Amount', numeric: true, width: 18, write: (c, s) => setAmount(c, s.amount, s.currency) },
];

const FIELDS_START = 3;
const FIELD_COUNT = 5;
const LINES_HEADER_ROW = FIELDS_START + FIELD_COUNT + 1;

/** The close's status in one line: final, final with unaccounted money accepted by name, or provisional and why. */
function closeStatus(input: Pick<CloseInput, 'provisional' | 'acceptance'>): string {
  const a = input.acceptance;
  const approval = a?.state === 'pending' ? ', waiting for a second person\'s approval'
    : a?.approvedBy ? `, approved by ${a.approvedBy}` : '';
  const accepted = a ? ` Accepted as unaccounted by ${a.by} ("${a.note}")${approval}: ${a.accepted.join('; ')}.` : '';
  if (input.provisional.length > 0) return `Provisional: ${input.provisional.join('; ')}.${accepted}`;
  return a ? `Final with unaccounted money accepted: no open error findings, no variance.${accepted}`
    : 'Final: no open error findings, no variance, no money unaccounted for (bank, suspense)';
}

async function writeSummarySheet(workbook: StreamingWorkbook, input: CloseInput): Promise<number> {
  const sheet = addSheet(workbook, 'Summary', LINE_COLUMNS.map((c) => c.width), LINES_HEADER_ROW);
  const title = sheet.getRow(1);
  title.getCell(1).value = `Monthly close ${input.month}`;
  styleTitle(title.getCell(1));
  title.commit();
  writeFields(sheet, FIELDS_START, [
    [
      'Month',
      (c) =>
        setText(
          c,
          !input.booksTz || input.booksTz === 'UTC' ? input.month : `${input.month} (delivered_at in ${input.booksTz})`,
        ),
    ],
    ['Version', (c) => setCount(c, input.version)],
    ['Generated (UTC)', (c) => setDate(c, input.generatedAt)],
    ['Service', (c) => setText(c, input.serviceUrl)],
    ['Status', (c) => setText(c, closeStatus(input))],
  ]);
  const lines = await writeTable(sheet, LINES_HEADER_ROW, LINE_COLUMNS, input.lines);
  const totalsHeader = LINES_HEADER_ROW + Math.max(lines, 1) + 2;
  const after = writeTotalsByCurrency(sheet, totalsHeader, input.lines);
  if (input.controls) writeCloseControls(sheet, after + 1, input.controls, input.acceptance?.by ?? null);
  sheet.commit();
  return lines;
}

/** Per-currency totals under the lines, summed as bigint; the line columns are reused below them. */
function writeTotalsByCurrency(sheet: ExcelJS.Worksheet, headerRow: number, lines: readonly CloseLine[]): number {
  const totals = new Map<string, CloseLine>();
  for (const l of lines) {
    const t = totals.get(l.currency);
    totals.set(l.currency, t ? {
      recipientId: '', currency: l.currency, disbursements: t.disbursements + l.disbursements,
      payouts: t.payouts + l.payouts, refunds: t.refunds + l.refunds,
      credits: t.credits + l.credits,
      debits: t.debits + l.debits, computedNet: t.computedNet + l.computedNet,
      disbursedTotal: t.disbursedTotal + l.disbursedTotal, variance: t.variance + l.variance,
    } : { ...l, recipientId: '' });
  }
  writeHeaderRow(sheet, headerRow, ['Totals by currency', 'Currency', ...AMOUNT_COLUMNS]);
  [...totals.values()].forEach((total, i) => {
    const row = sheet.getRow(headerRow + 1 + i);
    row.getCell(1).value = 'Total';
    row.getCell(1).font = BOLD;
    LINE_COLUMNS.slice(1).forEach((column, j) => column.write(row.getCell(j + 2), total));
    row.commit();
  });
  return headerRow + 1 + totals.size;
}

const JOURNAL_HEADERS = [
  'Currency',
  'Account',
  'Description',
  { header: 'Debit', numeric: true },
  { header: 'Credit', numeric: true },
  { header: 'Balanced?', numeric: true },
  'Role',
];
/** With a chart of accounts (recon close --accounts): the account of the user's books each line posts to. */
const LEDGER_HEADERS = ['Code', 'Account in your books'];

/**
 * Entries grouped by currency (input order kept within a currency), each group closed by a total row: the
 * journal the files book, at the currency's ISO 4217 decimals, with each line's role and, given a chart of
 * accounts, the code and name of the account it posts to.
 */
function writeJournalSheet(
  workbook: StreamingWorkbook,
  journal: readonly JournalEntry[],
  balances: CurrencyBalance[],
): void {
  const ledger = journal.some((e) => e.ledger);
  const headers = [...JOURNAL_HEADERS, ...(ledger ? LEDGER_HEADERS : [])];
  const sheet = addSheet(workbook, 'Journal', [10, 30, 40, 16, 16, 11, 18, ...(ledger ? [14, 30] : [])], 1);
  writeHeaderRow(sheet, 1, headers);
  let rowNumber = 2;
  for (const balance of balances) {
    const first = rowNumber;
    for (const entry of journal.filter((e) => e.currency === balance.currency)) {
      const row = sheet.getRow(rowNumber++);
      setText(row.getCell(1), entry.currency);
      setText(row.getCell(2), entry.account);
      setText(row.getCell(3), entry.description);
      if (entry.debit !== 0n) setAmount(row.getCell(4), entry.debit, entry.currency);
      if (entry.credit !== 0n) setAmount(row.getCell(5), entry.credit, entry.currency);
      setText(row.getCell(7), entry.role);
      if (entry.ledger) {
        setText(row.getCell(8), entry.ledger.code);
        setText(row.getCell(9), entry.ledger.name);
      }
      row.commit();
    }
    const total = sheet.getRow(rowNumber++);
    setText(total.getCell(1), balance.currency);
    setText(total.getCell(2), `Total ${balance.currency}`);
    setAmount(total.getCell(4), balance.debit, balance.currency);
    setAmount(total.getCell(5), balance.credit, balance.currency);
    // live formulas over recon's own numeric cells (never over service text), with the values recon
    // computed as their cached results: a person who edits an entry sees the balance test react
    const last = rowNumber - 2;
    const sum = (col: string, cell: ExcelJS.Cell) => {
      if (typeof cell.value === 'number')
        cell.value = { formula: `SUM(${col}${first}:${col}${last})`, result: cell.value };
    };
    sum('D', total.getCell(4));
    sum('E', total.getCell(5));
    const places = currencyDecimals(balance.currency);
    total.getCell(6).value = {
      formula: `IF(ROUND(D${last + 1}-E${last + 1},${places})=0,"Yes","No")`,
      result: balance.balanced ? 'Yes' : 'No',
    };
    for (let col = 1; col <= headers.length; col++) styleHeader(total.getCell(col));
    total.getCell(6).alignment = { horizontal: 'right' };
    total.commit();
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(rowNumber - 1, 2), column: headers.length } };
  // printed: the journal itself (Currency … Balanced?); the role and the user's account are on screen, as the Journal
  // files
  sheet.pageSetup.printArea = `A$1:F$${Math.max(rowNumber - 1, 2)}`;
  sheet.commit();
}
