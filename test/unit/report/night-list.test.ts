// What a run's workbook lists of the store: the backfill night lists every disbursement (past the sheet's
// rows, the CSV beside it holds them all); a later night lists its window — what the runs since the last
// check run read — and every disbursement with a finding not yet resolved, each finding linking to its
// disbursement's row; the close lists its month, never more than a sheet holds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks } from '../../../src/checks/runner.js';
import { writeRunWorkbook } from '../../../src/report/run-report.js';
import { writeMonthClose } from '../../../src/close/month.js';
import { openTempStore, type TempStore } from '../../helpers/check-fixtures.js';
import { zipEntryText } from './helpers.js';

const STORED = 1_200;
const LIMIT = 1_000;
const id = (i: number) => `dsb_${String(i).padStart(5, '0')}`;
/** Every tenth is a subunit over its lines and its file: a total_identity and a file_vs_api finding each. */
const OFF = Array.from({ length: STORED / 10 }, (_, k) => id(k * 10 + 3));
/** What the second night's sync read again, none of them with a finding. */
const READ_AGAIN = Array.from({ length: 30 }, (_, k) => id(k * 40 + 1));

let t: TempStore;
const run = (sql: string) => t.connection.run(sql);

/** `STORED` disbursements of one payout and their settlement files, delivered in May and June 2026, written by sync-1. */
async function fill(): Promise<void> {
  await run(`INSERT INTO runs (run_id, command, started_at, status) VALUES ('sync-1', 'sync', '2026-07-01 02:00:00+00', 'succeeded')`);
  await run(`INSERT INTO payouts SELECT 'dsb_' || lpad(CAST(i AS VARCHAR), 5, '0'), 1, 'rcp_' || CAST(i % 7 AS VARCHAR), 'po_' || CAST(i AS VARCHAR),
    'paid', 'pay_' || CAST(i AS VARCHAR), 'EUR', 1000 + i, 'sync-1', NULL, 1 FROM range(${STORED}) AS t(i)`);
  await run(`INSERT INTO file_lines SELECT disbursement_id, 1, 2, 'payout', NULL, reference, payment_id, currency, amount, 'sync-1', 'payout', 1 FROM payouts`);
  await run(`INSERT INTO disbursements SELECT disbursement_id, recipient_id, 'delivered', TIMESTAMPTZ '2026-06-30 12:00:00+00' - to_hours(CAST(line AS BIGINT)),
      1, 0, 0, amount + CASE WHEN line % 10 = 3 THEN 1 ELSE 0 END, 'EUR', '****' || right(recipient_id, 1), 'complete', NULL, 1, md5(disbursement_id),
      'sync-1', 'sync-1', now(), NULL
    FROM (SELECT *, CAST(substr(disbursement_id, 5) AS INTEGER) AS line FROM payouts)`);
  await run(`INSERT INTO disbursement_files SELECT disbursement_id, 1, 'settlement.csv', 'csv', md5(disbursement_id), 100, 'csv', 'parsed', NULL, 1, 1,
    amount, 'sync-1', now() FROM payouts`);
}

async function night(checkRun: string, startedAt: string) {
  await run(`INSERT INTO runs (run_id, command, started_at, status) VALUES ('${checkRun}', 'check', '${startedAt}', 'succeeded')`);
  const checks = await runChecks(t.connection, { runId: checkRun, now: new Date(startedAt) });
  return writeRunWorkbook(t.connection, { runId: checkRun, reportsDir: path.join(t.dir, 'reports'), serviceUrl: 'http://127.0.0.1:1', checks, maxRows: LIMIT });
}

const read = async (file: string) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  return wb;
};

/** Column A of a sheet by row number, and its last row. */
function columnA(sheet: ExcelJS.Worksheet): { cells: Map<number, string>; last: number } {
  const cells = new Map<number, string>();
  sheet.eachRow((row, n) => cells.set(n, String(row.getCell(1).value)));
  return { cells, last: Math.max(...cells.keys()) };
}

beforeAll(async () => {
  t = await openTempStore();
  await fill();
}, 60_000);
afterAll(() => t.close());

describe('the disbursements a workbook lists', () => {
  it('the backfill night lists every disbursement: the sheet its first rows, the CSV beside it all of them', async () => {
    const written = await night('check-1', '2026-07-01T03:00:00Z');
    expect(written.disbursements).toBe(STORED);
    const wb = await read(written.path);
    for (const sheet of wb.worksheets) expect(columnA(sheet).last, sheet.name).toBeLessThanOrEqual(LIMIT);
    const sheet = columnA(wb.getWorksheet('Disbursements')!);
    expect(sheet.cells.get(1)).toMatch(/^This sheet shows the first 994 of 1,200 rows/);
    expect(sheet.cells.get(4)).toBe('Disbursement');
    expect(sheet.cells.get(5)).toBe(id(0));
    const csv = parse(readFileSync(written.path.replace(/\.xlsx$/, '-disbursements.csv'), 'utf8')) as string[][];
    expect(csv.slice(1).map((r) => r[0])).toEqual(Array.from({ length: STORED }, (_, i) => id(i)));
  });

  it('a later night lists its window and the disbursements with findings, and each finding links to its row', async () => {
    await run(`INSERT INTO runs (run_id, command, started_at, status) VALUES ('sync-2', 'sync', '2026-07-02 02:00:00+00', 'succeeded')`);
    await run(`INSERT INTO deep_reads SELECT unnest([${READ_AGAIN.map((d) => `'${d}'`).join(', ')}]), TIMESTAMPTZ '2026-07-02 02:10:00+00', 'sync-2'`);
    const written = await night('check-2', '2026-07-02T03:00:00Z');
    const listed = [...READ_AGAIN, ...OFF].sort();
    expect(written.disbursements).toBe(listed.length);
    const wb = await read(written.path);
    const sheet = columnA(wb.getWorksheet('Disbursements')!);
    expect(sheet.cells.get(1)).toBe('Disbursement');
    expect(listed.map((_, i) => sheet.cells.get(2 + i))).toEqual(listed);
    const summary = new Map<string, unknown>();
    wb.getWorksheet('Summary')!.eachRow((row) => summary.set(String(row.getCell(1).value), row.getCell(2).value));
    expect(summary.get('Disbursements listed')).toBe(listed.length);
    expect(String(summary.get('Listed because'))).toMatch(/^read or credited this night \(30\), or with a finding not yet resolved \(120\)/);
    expect(String(summary.get('Every disbursement'))).toMatch(/^all 1,200 stored are in the published snapshot/);
    // every finding's disbursement cell links to the row of that disbursement
    const links = [...zipEntryText(written.path, 'xl/worksheets/sheet4.xml').matchAll(/<hyperlink ref="E(\d+)"[^>]*location="Disbursements!A(\d+)"/g)];
    expect(links).toHaveLength(240);
    const exceptions = wb.getWorksheet('Exceptions')!;
    for (const [, from, to] of links) expect(sheet.cells.get(Number(to))).toBe(String(exceptions.getRow(Number(from)).getCell(5).value));
  });

  it('the close lists its month, its first rows on the sheet and the whole month in the CSV', async () => {
    const written = await writeMonthClose(t.connection, { month: '2026-06', version: 1, reportsDir: path.join(t.dir, 'close'),
      serviceUrl: 'http://127.0.0.1:1', now: new Date('2026-07-02T08:00:00Z'), booksTz: 'UTC', book: (journal) => journal,
      maxRows: 500 });
    const june = Array.from({ length: STORED }, (_, i) => new Date(Date.UTC(2026, 5, 30, 12) - i * 3_600_000)).filter((d) => d.getUTCMonth() === 5).length;
    expect(written.disbursements).toBe(june);
    const wb = await read(written.path);
    for (const sheet of wb.worksheets) expect(columnA(sheet).last, sheet.name).toBeLessThanOrEqual(500);
    const csv = parse(readFileSync(path.join(t.dir, 'close', 'close-2026-06-disbursements.csv'), 'utf8')) as string[][];
    expect(csv).toHaveLength(june + 1);
  });
});
