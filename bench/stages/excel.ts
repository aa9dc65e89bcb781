// excel_ratio / excel_peak_rss_mb: the exception workbook with N findings (writeExceptionWorkbook, one
// process) against a bare exceljs streaming write of the same cell values, no styles (another process).
// Both sides convert money the same way (subunits ÷ the currency's factor, as cells.ts setAmount does
// below 10^15) and both yield to the compressor every 50 rows (workbook-file.ts pace); what is left is
// recon's styles, widths, extra sheets and row heights.
// Args: recon|bare findings
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { currencyFactor } from '../../src/money.js';
import { pace } from '../../src/report/workbook-file.js';
import { writeExceptionWorkbook } from '../../src/report/exceptions-workbook.js';
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

/** The values the exception sheet shows for a finding, in its column order (null: an empty cell). */
function values(f: FindingRow): ExcelJS.CellValue[] {
  const money = (v: bigint | null) => (v === null ? null : f.currency === null ? Number(v) : Number(v) / currencyFactor(f.currency));
  return [f.status, f.ageDays, f.checkId, f.severity, f.recipientId, f.disbursementId, f.subject, f.currency,
    money(f.expected), money(f.actual), money(f.difference), f.detail, f.key, f.firstSeen, f.ackNote ?? null];
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

stage(async ([mode = 'recon', nArg = '100000']) => {
  const n = Number(nArg);
  const tmp = tempDir();
  try {
    const file = path.join(tmp.dir, 'exceptions.xlsx');
    const started = performance.now();
    let cells = 0; // non-empty cells of the sheet, counted on the bare side
    if (mode === 'bare') cells = await bare(file, n);
    else await writeExceptionWorkbook(file, { summary: SUMMARY, findings: findings(n), disbursements: [] });
    const s = seconds(started);
    return { mode, findings: n, seconds: s, cells: mode === 'bare' ? cells : null, bytes: (await stat(file)).size, peakRssMb: peakRssMb() };
  } finally {
    tmp.cleanup();
  }
});
