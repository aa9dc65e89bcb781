// excel_ratio / excel_peak_rss_mb: the exception workbook with N findings (writeExceptionWorkbook, one
// process) against a bare exceljs streaming write of the same cell values, no styles (another process).
// Both sides convert money the same way (subunits ÷ the currency's factor, as cells.ts setAmount does
// below 10^15) and both yield to the compressor every 50 rows (workbook-file.ts pace); what is left is
// recon's styles, widths, extra sheets and row heights.
// `styled` is exceljs's own styled path: the same exceljs streaming write with useStyles on, every
// cell given its style as one shared object per column (the cheapest way exceljs takes a style: no lookup
// by content), the numeric columns' number formats and alignment, the row heights of the wrapped text:
// what any styled table costs through exceljs's Row and Cell objects. It was the floor under recon's side
// until recon rendered its table rows itself (table-sheet.ts); it is kept as the reference for that.
// Each side also reports its CPU seconds (all threads, deflate included) over the write.
// Args: recon|bare|styled findings
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { currencyFactor } from '../../src/money.js';
import { pace } from '../../src/report/workbook-file.js';
import { writeExceptionWorkbook } from '../../src/report/exceptions-workbook.js';
import { FINDING_COLUMNS } from '../../src/report/columns.js';
import { numberFormat } from '../../src/report/cells.js';
import { wrappedLines } from '../../src/report/table-sheet.js';
import type { FindingRow, RunSummary } from '../../src/report/types.js';
import { peakRssMb, seconds, stage, tempDir } from '../lib.js';
import { finding } from '../synthetic.js';

function* findings(n: number): Generator<FindingRow> {
  for (let i = 0; i < n; i += 1) yield finding(i);
}

const SUMMARY: RunSummary = {
  runId: 'bench', startedAt: new Date('2026-11-01T02:30:00Z'), finishedAt: new Date('2026-11-01T02:40:00Z'),
  serviceUrl: 'http://127.0.0.1', disbursementsChecked: 0, byCheck: [], byStatus: { new: 0, open: 0, acknowledged: 0, resolved: 0 },
  paymentLookups: { sampled: 0, unverified: 0 },
  totalsByCurrency: [],
};

/** The values the exception sheet shows for a finding, in its column order (FINDING_COLUMNS; null: an empty cell). */
function values(f: FindingRow): ExcelJS.CellValue[] {
  const money = (v: bigint | null) => (v === null ? null : f.currency === null ? Number(v) : Number(v) / currencyFactor(f.currency));
  const byHeader: Record<string, ExcelJS.CellValue> = {
    Status: f.status, 'Age (days)': f.ageDays, Check: f.checkId, Severity: f.severity, Disbursement: f.disbursementId, Subject: f.subject,
    Currency: f.currency, Expected: money(f.expected), Actual: money(f.actual), Difference: money(f.difference), Detail: f.detail,
    Recipient: f.recipientId, Key: f.key, 'First seen': f.firstSeen, Note: f.ackNote ?? null,
  };
  return FINDING_COLUMNS.map((c) => byHeader[c.header] ?? null);
}

async function bare(file: string, n: number): Promise<number> {
  const out = createWriteStream(file);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Exceptions');
  let cells = 0;
  let rows = 0;
  for (const f of findings(n)) {
    const row = values(f);
    cells += row.filter((v) => v !== null).length;
    sheet.addRow(row).commit();
    await pace(sheet, ++rows);
  }
  sheet.commit();
  await workbook.commit();
  if (!out.closed) await once(out, 'close');
  return cells;
}

async function styled(file: string, n: number): Promise<void> {
  const out = createWriteStream(file);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Exceptions');
  sheet.columns = FINDING_COLUMNS.map((c) => ({ width: c.width }));
  const top = Object.freeze({ alignment: { vertical: 'top' } }) as Partial<ExcelJS.Style>;
  const wrap = Object.freeze({ alignment: { wrapText: true, vertical: 'top' } }) as Partial<ExcelJS.Style>;
  const numbers = new Map<string, Partial<ExcelJS.Style>>();
  const numeric = (fmt: string) => {
    let style = numbers.get(fmt);
    if (!style) numbers.set(fmt, (style = Object.freeze({ numFmt: fmt, alignment: { horizontal: 'right', indent: 1, vertical: 'top' } }) as Partial<ExcelJS.Style>));
    return style;
  };
  let rows = 0;
  for (const f of findings(n)) {
    const row = sheet.getRow(rows + 2);
    let lines = 1;
    values(f).forEach((value, i) => {
      const column = FINDING_COLUMNS[i]!;
      const cell = row.getCell(i + 1);
      if (value !== null) cell.value = value;
      if (column.wrap) {
        cell.style = wrap;
        lines = Math.max(lines, wrappedLines(value, column.width));
      } else if (column.numeric && typeof value === 'number') cell.style = numeric(f.currency ? numberFormat(f.currency) : '#,##0');
      else cell.style = top;
    });
    if (lines > 1) row.height = 15 * lines;
    row.commit();
    await pace(sheet, ++rows);
  }
  sheet.commit();
  await workbook.commit();
  if (!out.closed) await once(out, 'close');
}

stage(async ([mode = 'recon', nArg = '100000']) => {
  const n = Number(nArg);
  const tmp = tempDir();
  try {
    const file = path.join(tmp.dir, 'exceptions.xlsx');
    const started = performance.now();
    const cpu = process.cpuUsage();
    let cells = 0; // non-empty cells of the sheet, counted on the bare side
    if (mode === 'bare') cells = await bare(file, n);
    else if (mode === 'styled') await styled(file, n);
    else await writeExceptionWorkbook(file, { summary: SUMMARY, findings: findings(n), disbursements: [] });
    const s = seconds(started);
    const used = process.cpuUsage(cpu);
    return { mode, findings: n, seconds: s, cpuSeconds: (used.user + used.system) / 1e6, cells: mode === 'bare' ? cells : null, bytes: (await stat(file)).size, peakRssMb: peakRssMb() };
  } finally {
    tmp.cleanup();
  }
});
