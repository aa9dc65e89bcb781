// The daily exception workbook accountants open every morning: a Summary of the run, what each check
// means and what to do about it (Checks), every finding on Exceptions, the disbursements listed for the
// night on Disbursements (run-report.ts says which), and the last 31 days drawn on Month. No sheet passes
// Excel's rows: a longer list shows its first rows and goes whole to a CSV beside it (list-sheet.ts).
import { BOLD, setAmount, setCount, setDate, setSeverity, setText, styleTitle } from './cells.js';
import { DISBURSEMENT_COLUMNS, DISBURSEMENTS_SHEET, findingColumns, type DisbursementTotals } from './columns.js';
import { convert, type Rates } from '../rates.js';
import type { CurrencyStake } from '../store/read/summaries.js';
import { writeFields, writeSmallTable, writeTableSheet, type ColumnSpec } from './table-sheet.js';
import { writeMonthSheet, type MonthShape } from './month-sheet.js';
import type { BankSheets, CheckWords, DisbursementRow, FindingRow, RunSummary } from './types.js';
import { writeBankSheets } from './bank-sheet.js';
import { writeWorkbookFile, type StreamingWorkbook } from './workbook-file.js';
import {
  countOf, listLayout, rowsOf, roomBeside, writeListTableSheet, type CountedRows, type SheetRoom,
} from './list-sheet.js';
import { addSheet } from './table-sheet.js';
import type ExcelJS from 'exceljs';
import { writeAgeing } from './ageing-table.js';

/** Why the Disbursements sheet lists what it lists (run-report.ts): shown on the Summary. */
interface ListedDisbursements {
  /** In the night's window. */
  window: number;
  /** With a finding not yet resolved. */
  withFindings: number;
  /** Every disbursement stored. */
  stored: number;
}

interface ExceptionWorkbookInput {
  summary: RunSummary;
  findings: CountedRows<FindingRow>;
  disbursements: CountedRows<DisbursementRow>;
  /** What the Disbursements sheet lists of the store (left out: every disbursement given). */
  listed?: ListedDisbursements;
  /** Days with disbursed totals and findings, drawn on a Month sheet (left out when absent). */
  month?: MonthShape;
  /**
   * Whether each disbursement's money arrived, the credits that settled nothing, files refused (left out without
   * statements).
   */
  bank?: BankSheets;
  /** What each check means and what to do about it, from its own file's header (the Checks sheet). */
  checks?: readonly CheckWords[];
}

export interface WrittenWorkbook {
  path: string;
  findings: number;
  disbursements: number;
}

/**
 * Streams the workbook to `path` (via a temp file and rename). Findings and disbursements are
 * consumed once, in order, and never held in memory. `maxRows`: the rows a sheet may hold (Excel's
 * limit; tests give a small one).
 */
export async function writeExceptionWorkbook(
  path: string,
  input: ExceptionWorkbookInput,
  o: { maxRows?: number } = {},
): Promise<WrittenWorkbook> {
  const room = roomBeside(path, o.maxRows);
  return writeWorkbookFile(path, async (workbook) => {
    writeSummarySheet(workbook, input.summary, countOf(input.disbursements), input.listed);
    if (input.month) await writeMonthSheet(workbook, input.month);
    await writeTableSheet(workbook, 'Checks', CHECK_COLUMNS, checkRows(input.summary, input.checks ?? []));
    // Sheets are written one after another: the zip takes one entry at a time, and a second open
    // sheet would buffer in memory until the first one is committed.
    const columns = findingColumns(input.summary.rates?.reporting ?? null, true);
    const findings = await writeListTableSheet(workbook, room, 'Exceptions', columns, input.findings,
      { whole: `recon sql "SELECT * FROM exceptions WHERE run_id = '${input.summary.runId}'"` });
    const disbursements = await writeDisbursementsSheet(
      workbook,
      room,
      input.disbursements,
      input.summary.totalsByCurrency.length,
    );
    if (input.bank) await writeBankSheets(workbook, room, input.bank);
    return { path, findings: findings.count, disbursements };
  });
}

/** The Disbursements sheet's lines under its table: a blank row and one totals row per currency of the store. */
export function disbursementsBelow(currencies: number): number {
  return 1 + currencies;
}

interface CheckRow {
  checkId: string;
  errors: number;
  warnings: number;
  words: CheckWords | undefined;
}

const CHECK_COLUMNS: ReadonlyArray<ColumnSpec<CheckRow>> = [
  { header: 'Check', width: 24, write: (c, r) => setText(c, r.checkId) },
  { header: 'Errors', numeric: true, width: 9, write: (c, r) => setCount(c, r.errors) },
  { header: 'Warnings', numeric: true, width: 10, write: (c, r) => setCount(c, r.warnings) },
  {
    header: 'What it means',
    width: 55,
    wrap: true,
    write: (c, r) => setText(c, r.words?.meaning ?? 'see sql/checks/' + r.checkId + '.sql'),
  },
  { header: 'What to do next', width: 60, wrap: true, write: (c, r) => setText(c, r.words?.nextStep ?? '') },
];

/** Every known check and every check of this run, the ones with findings first. */
function checkRows(summary: RunSummary, checks: readonly CheckWords[]): CheckRow[] {
  const words = new Map(checks.map((c) => [c.id, c]));
  const ids = new Set([...words.keys(), ...summary.byCheck.map((b) => b.checkId)]);
  const count = (id: string, severity: string) =>
    summary.byCheck.filter((b) => b.checkId === id && b.severity === severity).reduce((n, b) => n + b.count, 0);
  return [...ids]
    .map((checkId) => ({
      checkId,
      errors: count(checkId, 'error'),
      warnings: count(checkId, 'warning'),
      words: words.get(checkId),
    }))
    .sort((a, b) => b.errors - a.errors || b.warnings - a.warnings || (a.checkId < b.checkId ? -1 : 1));
}

/**
 * The disbursements listed, then one totals row per currency of the rows on the sheet (never a total across
 * currencies), summed as they are written.
 */
async function writeDisbursementsSheet(
  workbook: StreamingWorkbook, room: SheetRoom, list: CountedRows<DisbursementRow>, currencies: number,
): Promise<number> {
  const totals = new Map<string, DisbursementTotals>();
  const count = countOf(list);
  const below = disbursementsBelow(currencies);
  const shown = count === null ? Infinity : listLayout(room.maxRows, count, 0, below).shown;
  const rows = summed(rowsOf(list), totals, shown);
  const written = await writeListTableSheet(
    workbook,
    room,
    DISBURSEMENTS_SHEET,
    DISBURSEMENT_COLUMNS,
    count === null ? rows : { rows, count },
    { below, whole: 'recon sql "SELECT * FROM reconciliation"', open: true },
  );
  const { sheet } = written;
  let at = written.nextRow + 1;
  const column = (header: string) => DISBURSEMENT_COLUMNS.findIndex((c) => c.header === header) + 1;
  const shownTotals = [...totals.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1));
  for (const t of shownTotals) {
    if (at > room.maxRows) break; // more currencies listed than stored: only a caller's inconsistent rows
    const row = sheet.getRow(at++);
    row.getCell(1).value = `Total ${t.currency}`;
    row.getCell(1).font = BOLD;
    setText(row.getCell(column('Currency')), t.currency);
    for (const [i, { total }] of DISBURSEMENT_COLUMNS.entries()) {
      if (!total) continue;
      const cell = row.getCell(i + 1);
      setAmount(cell, t[total], t.currency);
      cell.font = BOLD;
    }
    row.commit();
  }
  // the printed area ends at the last totals row, not at the table's
  if (sheet.pageSetup.printArea && shownTotals.length > 0)
    sheet.pageSetup.printArea = sheet.pageSetup.printArea.replace(/\$\d+$/, `$${at - 1}`);
  sheet.commit();
  return written.count;
}

/**
 * The rows as they are, their money added up per currency into `totals` as currency_totals.sql adds it
 * (a disbursement without a computed total adds nothing to it), of the first `limit` rows: those the sheet shows.
 */
async function* summed(
  rows: AsyncIterable<DisbursementRow> | Iterable<DisbursementRow>,
  totals: Map<string, DisbursementTotals>,
  limit: number,
): AsyncGenerator<DisbursementRow> {
  let n = 0;
  for await (const d of rows) {
    if (n++ >= limit) {
      yield d;
      continue;
    }
    let t = totals.get(d.currency);
    if (!t)
      totals.set(
        d.currency,
        (t = {
          currency: d.currency,
          reported: 0n,
          computed: 0n,
          difference: 0n,
          payouts: 0n,
          refunds: 0n,
          credits: 0n,
          debits: 0n,
        }),
      );
    t.reported += d.reported;
    t.computed += d.computed ?? 0n;
    t.difference += d.difference ?? 0n;
    t.payouts += d.payouts ?? 0n;
    t.refunds += d.refunds ?? 0n;
    t.credits += d.credits ?? 0n;
    t.debits += d.debits ?? 0n;
    yield d;
  }
}

type CheckCount = RunSummary['byCheck'][number];
type CurrencyTotal = RunSummary['totalsByCurrency'][number];
type StatusCount = { status: string; count: number };

function writeSummarySheet(
  workbook: StreamingWorkbook,
  summary: RunSummary,
  listedCount: number | null,
  listed: ListedDisbursements | undefined,
): void {
  const sheet = addSheet(workbook, 'Summary', [28, 22, 16, 18, 18, 16, 18, 14, 12], 0);
  const title = sheet.getRow(1);
  title.getCell(1).value = 'Reconciliation exceptions';
  styleTitle(title.getCell(1));
  title.commit();

  let next = writeFields(sheet, 3, [
    ['Run', (c) => setText(c, summary.runId)],
    ['Started (UTC)', (c) => setDate(c, summary.startedAt)],
    ['Finished (UTC)', (c) => (summary.finishedAt ? setDate(c, summary.finishedAt) : setText(c, 'not finished'))],
    ['Service', (c) => setText(c, summary.serviceUrl)],
    ['Disbursements checked', (c) => setCount(c, summary.disbursementsChecked)],
    ...listedFields(listedCount, listed),
    ['Payments looked up', (c) => setCount(c, summary.paymentLookups.sampled)],
    ['Look-ups unverified', (c) => setCount(c, summary.paymentLookups.unverified)],
  ]);

  if (summary.stakes) next = writeStakes(sheet, next + 1, summary.stakes, summary.rates ?? null);
  if (summary.ageing) next = writeAgeing(sheet, next + 1, summary.ageing);

  const { byStatus } = summary;
  const statuses: StatusCount[] = [
    { status: 'new', count: byStatus.new },
    { status: 'open', count: byStatus.open },
    { status: 'acknowledged', count: byStatus.acknowledged },
    { status: 'resolved', count: byStatus.resolved },
    { status: 'total', count: byStatus.new + byStatus.open + byStatus.acknowledged + byStatus.resolved },
  ];
  next = writeSmallTable<StatusCount>(
    sheet,
    next + 1,
    [
      { header: 'Findings by status', write: (c, s) => setText(c, s.status) },
      { header: 'Findings', write: (c, s) => setCount(c, s.count) },
    ],
    statuses,
  );

  next = writeSmallTable<CheckCount>(
    sheet,
    next + 1,
    [
      { header: 'Check', write: (c, k) => setText(c, k.checkId) },
      { header: 'Severity', write: (c, k) => setSeverity(c, k.severity) },
      { header: 'Findings', write: (c, k) => setCount(c, k.count) },
    ],
    summary.byCheck,
  );

  writeSmallTable<CurrencyTotal>(
    sheet,
    next + 1,
    [
      { header: 'Currency', write: (c, t) => setText(c, t.currency) },
      { header: 'Disbursements', numeric: true, write: (c, t) => setCount(c, t.disbursements) },
      { header: 'Reported total', numeric: true, write: (c, t) => setAmount(c, t.reported, t.currency) },
      { header: 'Computed total', numeric: true, write: (c, t) => setAmount(c, t.computed, t.currency) },
      { header: 'Difference', numeric: true, write: (c, t) => setAmount(c, t.difference, t.currency) },
    ],
    summary.totalsByCurrency,
  );

  sheet.commit();
}

/** What the Disbursements sheet lists and where every disbursement is (docs/workbooks.md). */
function listedFields(
  count: number | null,
  listed: ListedDisbursements | undefined,
): Array<[string, (c: ExcelJS.Cell) => void]> {
  if (!listed || count === null) return [];
  const n = (x: number) => x.toLocaleString('en-US');
  return [
    ['Disbursements listed', (c) => setCount(c, count)],
    [
      'Listed because',
      (c) =>
        setText(
          c,
          `read or credited this night (${n(listed.window)}), or with a finding not yet resolved ` +
            `(${n(listed.withFindings)}); ` +
            'see the Disbursements and Bank sheets',
        ),
    ],
    [
      'Every disbursement',
      (c) =>
        setText(
          c,
          `all ${n(listed.stored)} stored are in the published snapshot: recon sql "SELECT * FROM reconciliation" ` +
            '(their bank status: bank_status)',
        ),
    ],
  ];
}

type StakeRow = CurrencyStake & { converted: bigint | null; rate: Rates['rates'][number] | undefined };

/**
 * Per currency, money at stake now, not yet in the bank and in suspense, each in its own currency.
 * With rates, the at-stake amounts converted, their total in the reporting currency and which rates were
 * used; without, a line saying nothing is added across currencies.
 */
function writeStakes(
  sheet: ExcelJS.Worksheet,
  at: number,
  stakes: readonly CurrencyStake[],
  rates: Rates | null,
): number {
  const rows: StakeRow[] = stakes.map((s) => {
    const rate = rates?.rates.find((r) => r.currency === s.currency);
    return { ...s, rate, converted: rates && rate ? convert(rates, s.atStake, s.currency) : null };
  });
  const cols: Array<Omit<ColumnSpec<StakeRow>, 'width'>> = [
    { header: 'Money at stake by currency', write: (c, r) => setText(c, r.currency) },
    { header: 'At stake now', numeric: true, write: (c, r) => setAmount(c, r.atStake, r.currency) },
    { header: 'Causes', numeric: true, write: (c, r) => setCount(c, r.causes) },
    {
      header: 'Not yet in the bank',
      numeric: true,
      write: (c, r) => (r.notInBank === null ? setText(c, 'no statements') : setAmount(c, r.notInBank, r.currency)),
    },
    {
      header: 'Another account or currency',
      numeric: true,
      write: (c, r) => (r.elsewhere === null ? undefined : setAmount(c, r.elsewhere, r.currency)),
    },
    { header: 'In currency suspense', numeric: true, write: (c, r) => setAmount(c, r.suspense, r.currency) },
  ];
  if (rates) {
    cols.push(
      {
        header: `At stake now (${rates.reporting})`,
        numeric: true,
        write: (c, r) => (r.converted === null ? setText(c, 'no rate') : setAmount(c, r.converted, rates.reporting)),
      },
      { header: `Rate to ${rates.reporting}`, numeric: true, write: (c, r) => setText(c, r.rate?.text ?? null) },
      { header: 'Rate as of', write: (c, r) => setText(c, r.rate?.asOf ?? null) },
    );
  }
  let next = writeSmallTable<StakeRow>(sheet, at, cols, rows);
  const line = (label: string, write: (c: ExcelJS.Cell) => void) => {
    const row = sheet.getRow(next++);
    row.getCell(1).value = label;
    row.getCell(1).font = BOLD;
    write(row.getCell(2));
    row.commit();
  };
  if (rates) {
    const total = rows.reduce((n, r) => n + (r.converted ?? 0n), 0n);
    const missing = rows.filter((r) => r.converted === null && r.atStake !== 0n).map((r) => r.currency);
    line(`Total at stake now (${rates.reporting})`, (c) => setAmount(c, total, rates.reporting));
    line('Rates used', (c) =>
      setText(
        c,
        `${rates.source}: ${rates.rates.map((r) => `${r.currency} ${r.text} (${r.asOf})`).join(', ')}` +
          (missing.length > 0 ? `; no rate for ${missing.join(', ')}: not in the total` : ''),
      ),
    );
  } else {
    line('Rates used', (c) =>
      setText(
        c,
        'none (--rates FILE): amounts of different currencies are never added or ranked together; Exceptions are ' +
          'ordered within each currency',
      ),
    );
  }
  return next;
}
