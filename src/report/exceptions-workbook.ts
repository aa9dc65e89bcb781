// The daily exception workbook accountants open every morning: a Summary of the run, every
// finding on Exceptions, every checked disbursement on Disbursements.
import { setAmount, setCount, setDate, setSeverity, setText, styleTitle } from './cells.js';
import { DISBURSEMENT_COLUMNS, FINDING_COLUMNS } from './columns.js';
import { addSheet, writeFields, writeSmallTable, writeTableSheet } from './table-sheet.js';
import type { DisbursementRow, FindingRow, RowSource, RunSummary } from './types.js';
import { writeWorkbookFile, type StreamingWorkbook } from './workbook-file.js';

export interface ExceptionWorkbookInput {
  summary: RunSummary;
  findings: RowSource<FindingRow>;
  disbursements: RowSource<DisbursementRow>;
}

export interface WrittenWorkbook {
  path: string;
  findings: number;
  disbursements: number;
}

/**
 * Streams the workbook to `path` (via a temp file and rename). Findings and disbursements are
 * consumed once, in order, and never held in memory.
 */
export async function writeExceptionWorkbook(
  path: string,
  input: ExceptionWorkbookInput,
): Promise<WrittenWorkbook> {
  return writeWorkbookFile(path, async (workbook) => {
    writeSummarySheet(workbook, input.summary);
    // Sheets are written one after another: the zip takes one entry at a time, and a second open
    // sheet would buffer in memory until the first one is committed.
    const findings = await writeTableSheet(workbook, 'Exceptions', FINDING_COLUMNS, input.findings);
    const disbursements = await writeTableSheet(
      workbook, 'Disbursements', DISBURSEMENT_COLUMNS, input.disbursements);
    return { path, findings, disbursements };
  });
}

type CheckCount = RunSummary['byCheck'][number];
type CurrencyTotal = RunSummary['totalsByCurrency'][number];
type StatusCount = { status: string; count: number };

function writeSummarySheet(workbook: StreamingWorkbook, summary: RunSummary): void {
  const sheet = addSheet(workbook, 'Summary', [28, 22, 16, 16, 16], 0);
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
    ['Payments looked up', (c) => setCount(c, summary.paymentLookups.sampled)],
    ['Look-ups unverified', (c) => setCount(c, summary.paymentLookups.unverified)],
  ]);

  const { byStatus } = summary;
  const statuses: StatusCount[] = [
    { status: 'new', count: byStatus.new },
    { status: 'open', count: byStatus.open },
    { status: 'acknowledged', count: byStatus.acknowledged },
    { status: 'resolved', count: byStatus.resolved },
    { status: 'total', count: byStatus.new + byStatus.open + byStatus.acknowledged + byStatus.resolved },
  ];
  next = writeSmallTable<StatusCount>(sheet, next + 1, [
    { header: 'Findings by status', write: (c, s) => setText(c, s.status) },
    { header: 'Findings', write: (c, s) => setCount(c, s.count) },
  ], statuses);

  next = writeSmallTable<CheckCount>(sheet, next + 1, [
    { header: 'Check', write: (c, k) => setText(c, k.checkId) },
    { header: 'Severity', write: (c, k) => setSeverity(c, k.severity) },
    { header: 'Findings', write: (c, k) => setCount(c, k.count) },
  ], summary.byCheck);

  writeSmallTable<CurrencyTotal>(sheet, next + 1, [
    { header: 'Currency', write: (c, t) => setText(c, t.currency) },
    { header: 'Disbursements', write: (c, t) => setCount(c, t.disbursements) },
    { header: 'Reported total', write: (c, t) => setAmount(c, t.reported, t.currency) },
    { header: 'Computed total', write: (c, t) => setAmount(c, t.computed, t.currency) },
    { header: 'Difference', write: (c, t) => setAmount(c, t.difference, t.currency) },
  ], summary.totalsByCurrency);

  sheet.commit();
}
