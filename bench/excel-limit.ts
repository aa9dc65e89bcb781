// The excel-limit stage: a store past a sheet's rows (1,050,000 disbursements, stages/excel-limit-store.ts, built by a
// process of its own), then `recon check` and `recon report` on it at their defaults, each in a process
// started as the bin starts it (stages/recon-command.ts). A command passes when it exits 0 or 1, no sheet of
// the workbook holds more than Excel's rows, and its peak RSS is under the target of the other workbook
// stages (excel_peak_rss_mb).
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInflateRaw } from 'node:zlib';
import { runStage, type StageResult } from './child.js';
import type { Figure } from './table.js';

export const PAST_SHEET_DISBURSEMENTS = 1_050_000;
const EXCEL_MAX_ROWS = 1_048_576;
const RSS_TARGET_MB = 400;

/** The zip entries of a workbook's sheets: name, where its data starts, its compressed size and method. */
async function sheetEntries(file: string): Promise<Array<{ name: string; start: number; size: number; method: number }>> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const tail = Buffer.alloc(Math.min(size, 65_557));
    await handle.read(tail, 0, tail.length, size - tail.length);
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    const dirSize = tail.readUInt32LE(eocd + 12);
    const dirAt = tail.readUInt32LE(eocd + 16);
    const dir = Buffer.alloc(dirSize);
    await handle.read(dir, 0, dirSize, dirAt);
    const out: Array<{ name: string; start: number; size: number; method: number }> = [];
    for (let at = 0; at < dirSize;) {
      const nameLength = dir.readUInt16LE(at + 28);
      const name = dir.toString('utf8', at + 46, at + 46 + nameLength);
      const local = dir.readUInt32LE(at + 42);
      const header = Buffer.alloc(30);
      await handle.read(header, 0, 30, local);
      if (/^xl\/worksheets\/sheet\d+\.xml$/.test(name)) {
        out.push({ name, start: local + 30 + header.readUInt16LE(26) + header.readUInt16LE(28), size: dir.readUInt32LE(at + 20),
          method: dir.readUInt16LE(at + 10) });
      }
      at += 46 + nameLength + dir.readUInt16LE(at + 30) + dir.readUInt16LE(at + 32);
    }
    return out;
  } finally {
    await handle.close();
  }
}

/** The highest row number of one sheet's XML, read as a stream (a sheet of a million rows never held whole). */
async function lastRow(file: string, entry: { start: number; size: number; method: number }): Promise<number> {
  const raw = createReadStream(file, { start: entry.start, end: entry.start + entry.size - 1 });
  const xml = entry.method === 8 ? raw.pipe(createInflateRaw()) : raw;
  let last = 0;
  let carry = '';
  for await (const chunk of xml) {
    const text = carry + (chunk as Buffer).toString('latin1');
    for (const m of text.matchAll(/<row r="(\d+)"/g)) last = Math.max(last, Number(m[1]));
    carry = text.slice(-32);
  }
  return last;
}

/** The most rows any sheet of any workbook in `dir` holds, and the CSVs written beside them. */
async function largestSheet(dir: string): Promise<{ rows: number; workbooks: number; csvs: string[] }> {
  const names = await readdir(dir);
  let rows = 0;
  const books = names.filter((n) => /^recon-\d.*\.xlsx$/.test(n));
  for (const name of books) {
    const file = path.join(dir, name);
    for (const entry of await sheetEntries(file)) rows = Math.max(rows, await lastRow(file, entry));
  }
  return { rows, workbooks: books.length, csvs: names.filter((n) => n.endsWith('.csv')) };
}

const fmt = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** recon check, then recon report, on a store past a sheet's rows; the figures `make bench` prints. */
export async function measureExcelLimit(outDir: string): Promise<Figure[]> {
  const dir = path.join(outDir, 'excel-limit');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const db = path.join(dir, 'recon.duckdb');
  const reports = path.join(dir, 'reports');
  const built = await runStage('excel-limit-store', [db, PAST_SHEET_DISBURSEMENTS, 3], 1_800_000);
  const check = await runStage('recon-command', ['check', '--db', db], 3_600_000);
  const report = await runStage('recon-command', ['report', '--db', db, '--reports', reports], 3_600_000);
  const sheets = await largestSheet(reports);
  const done = (r: StageResult) => r.code === 0 || r.code === 1;
  const store = `${built.disbursements} disbursements, ${built.payouts} payouts, ${built.fileLines} file lines (built in ${fmt(Number(built.buildS))} s)`;
  const command = (name: string, r: StageResult) => `recon ${name} at its defaults exit ${String(r.code)}, ${fmt(Number(r.seconds))} s, `
    + `CPU ${fmt(Number(r.cpuSeconds))} s, peak RSS ${fmt(Number(r.peakRssMb))} MB`;
  const rss = (key: string, r: StageResult, name: string): Figure => ({
    key, target: `< ${RSS_TARGET_MB}, exit 0 or 1`, value: Number(r.peakRssMb), met: done(r) && Number(r.peakRssMb) < RSS_TARGET_MB,
    note: `${command(name, r)}; ${store}.`, scale: `${PAST_SHEET_DISBURSEMENTS} disbursements`,
  });
  return [
    rss('excel_limit_check_peak_rss_mb', check, 'check'),
    rss('excel_limit_report_peak_rss_mb', report, 'report'),
    { key: 'excel_limit_sheet_rows', target: `≤ ${EXCEL_MAX_ROWS}`, value: sheets.rows, met: sheets.workbooks > 0 && sheets.rows <= EXCEL_MAX_ROWS,
      note: `the most rows of any sheet of the ${sheets.workbooks} workbook(s) recon report wrote; lists past a sheet went whole to `
        + `${sheets.csvs.length === 0 ? 'no CSV' : sheets.csvs.join(', ')}.`, scale: `${PAST_SHEET_DISBURSEMENTS} disbursements` },
  ];
}
