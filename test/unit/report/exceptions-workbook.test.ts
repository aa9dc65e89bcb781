import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readRates } from '../../../src/rates.js';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { describeChecks } from '../../../src/checks/index.js';
import { writeExceptionWorkbook } from '../../../src/report/exceptions-workbook.js';
import type { FindingRow } from '../../../src/report/types.js';
import {
  DISBURSEMENTS, FINDINGS, HOSTILE_SUBJECT, SUMMARY, generate, readWorkbook, sheetOf, dirPerTest, zipEntryText,
} from './helpers.js';

const HEADERS = ['Status', 'Age (days)', 'Check', 'Severity', 'Disbursement', 'Subject', 'Currency',
  'Expected', 'Actual', 'Difference', 'At stake', 'Detail', 'Repeats', 'Received', 'Recipient', 'Key', 'First seen', 'Acknowledged by', 'Acknowledged at', 'Note', 'Ack history',
  'Owner', 'Owner from', 'Due', 'Overdue', 'Acknowledged from', 'Approval'];
const col = (name: string): number => HEADERS.indexOf(name) + 1;

describe('writeExceptionWorkbook', () => {
  const tmp = dirPerTest();

  async function writeFixture(): Promise<{ path: string; workbook: ExcelJS.Workbook }> {
    const path = join(tmp.dir, 'nested', 'exceptions.xlsx');
    const written = await writeExceptionWorkbook(path, { summary: SUMMARY, findings: FINDINGS, disbursements: DISBURSEMENTS, checks: await describeChecks() });
    expect(written).toEqual({ path, findings: FINDINGS.length, disbursements: DISBURSEMENTS.length });
    return { path, workbook: await readWorkbook(path) };
  }

  it('creates the directory, writes four sheets and leaves no temp file behind', async () => {
    const { path, workbook } = await writeFixture();
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Summary', 'Checks', 'Exceptions', 'Disbursements']);
    expect(readdirSync(join(tmp.dir, 'nested'))).toEqual(['exceptions.xlsx']);
    expect(existsSync(path)).toBe(true);
  });

  it('explains each check in a sentence with what to do next and its count in this run, busiest first', async () => {
    const checks = sheetOf((await writeFixture()).workbook, 'Checks');
    expect(checks.getRow(1).values).toEqual([undefined, 'Check', 'Errors', 'Warnings', 'What it means', 'What to do next']);
    expect(checks.getRow(2).getCell(1).value).toBe('total_identity');
    expect(checks.getRow(2).getCell(2).value).toBe(3);
    expect(String(checks.getRow(2).getCell(4).value)).toMatch(/payouts \+ credit adjustments − refunds − debit adjustments/);
    expect(String(checks.getRow(2).getCell(5).value)).toMatch(/acknowledge with their ticket number/);
    expect(checks.getRow(2).getCell(4).alignment).toMatchObject({ wrapText: true });
    expect(checks.getRow(3).getCell(1).value).toBe('fx'); // a check without a file of its own is still listed
    expect(checks.getRow(3).getCell(3).value).toBe(1);
    expect(checks.rowCount).toBeGreaterThan(20);
    // every check of sql/checks is explained from its own header, the bank checks included
    const explained = new Map<string, string>();
    checks.eachRow((row, n) => { if (n > 1) explained.set(String(row.getCell(1).value), String(row.getCell(4).value)); });
    for (const check of await describeChecks()) expect(explained.get(check.id), check.id).toBe(check.meaning);
    expect(explained.get('bank_missing_credit')).toMatch(/no credit settled it/);
  });

  it('prints landscape, header row on every page, only the columns to act on, page x of y; long text wraps, numbers keep off text', async () => {
    const { workbook } = await writeFixture();
    const sheet = sheetOf(workbook, 'Exceptions');
    expect(sheet.pageSetup).toMatchObject({ orientation: 'landscape', fitToWidth: 1, printTitlesRow: '1:1' });
    expect(sheet.pageSetup.printArea).toMatch(/^A1:L\d+$/); // read back without the $ written
    expect(sheet.headerFooter.oddFooter).toMatch(/Page &P of &N/);
    expect(sheet.getRow(2).getCell(col('Detail')).alignment).toMatchObject({ wrapText: true });
    expect(sheet.getRow(2).getCell(col('Difference')).alignment).toMatchObject({ horizontal: 'right', indent: 1 });
  });

  it('writes amounts as numbers in major units with each currency’s decimals', async () => {
    const sheet = sheetOf((await writeFixture()).workbook, 'Exceptions');
    const expectAmount = (row: number, column: string, value: number, numFmt: string) => {
      const cell = sheet.getRow(row).getCell(col(column));
      expect(cell.type, `${column}${row}`).toBe(ExcelJS.ValueType.Number);
      expect(cell.value).toBe(value);
      expect(cell.numFmt).toBe(numFmt);
    };
    expectAmount(2, 'Expected', 1500, '#,##0'); // JPY
    expectAmount(2, 'Difference', -100, '#,##0');
    expectAmount(3, 'Expected', 12.345, '#,##0.000'); // KWD
    expectAmount(3, 'Difference', -0.345, '#,##0.000');
    expectAmount(4, 'Expected', 1.2, '#,##0.0'); // MGA: 6 subunits of 0.2
    expectAmount(4, 'Actual', 1, '#,##0.0');
    expectAmount(4, 'Difference', -0.2, '#,##0.0');
    expectAmount(5, 'Expected', 12.34, '#,##0.00'); // EUR
    expectAmount(6, 'Expected', 250, '#,##0'); // no currency: a count (count checks), a plain integer
  });

  it('leaves null amounts empty', async () => {
    const sheet = sheetOf((await writeFixture()).workbook, 'Exceptions');
    expect(sheet.getRow(5).getCell(col('Actual')).type).toBe(ExcelJS.ValueType.Null);
    expect(sheet.getRow(5).getCell(col('Difference')).value).toBeNull();
  });

  it('keeps service text as plain strings, including a hostile HYPERLINK formula', async () => {
    const { path, workbook } = await writeFixture();
    const sheet = sheetOf(workbook, 'Exceptions');
    const subject = sheet.getRow(2).getCell(col('Subject'));
    expect(subject.type).toBe(ExcelJS.ValueType.String);
    expect(subject.value).toBe(HOSTILE_SUBJECT);
    expect(subject.formula).toBeUndefined();
    expect(sheet.getRow(3).getCell(col('Recipient')).value).toBe('+rcp_2');
    expect(sheet.getRow(3).getCell(col('Detail')).value).toBe('-1+1');
    expect(sheet.getRow(4).getCell(col('Detail')).value).toBe('@SUM(A1)');
    expect(sheet.getRow(2).getCell(col('Key')).type).toBe(ExcelJS.ValueType.String);
    for (const part of ['xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml', 'xl/worksheets/sheet3.xml', 'xl/worksheets/sheet4.xml']) {
      expect(zipEntryText(path, part)).not.toMatch(/<f[\s>]/);
    }
    expect(zipEntryText(path, 'xl/worksheets/sheet3.xml')).toContain('=HYPERLINK(&quot;http://x&quot;,&quot;y&quot;)');
  });

  it('freezes and filters the header row of the table sheets', async () => {
    const { workbook } = await writeFixture();
    for (const name of ['Exceptions', 'Disbursements']) {
      const sheet = sheetOf(workbook, name);
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
      expect(sheet.autoFilter).toBeTruthy();
    }
    const exceptions = sheetOf(workbook, 'Exceptions');
    expect(exceptions.autoFilter).toBe('A1:AA6');
    expect(HEADERS.map((h, i) => exceptions.getRow(1).getCell(i + 1).value)).toEqual(HEADERS);
    expect(exceptions.getColumn(col('Detail')).width).toBeGreaterThan(30);
  });

  it('colours the severity cell and bolds new findings', async () => {
    const sheet = sheetOf((await writeFixture()).workbook, 'Exceptions');
    const fill = (row: number) => (sheet.getRow(row).getCell(col('Severity')).fill as ExcelJS.FillPattern).fgColor?.argb;
    expect(fill(2)).toBe('FFFFC7CE'); // error: light red
    expect(fill(3)).toBe('FFFFEB9C'); // warning: light amber
    expect(sheet.getRow(2).getCell(col('Status')).font?.bold).toBe(true);
    expect(sheet.getRow(5).getCell(col('Status')).value).toBe('acknowledged');
    expect(sheet.getRow(5).getCell(col('Note')).value).toBe('known, see ticket 42');
    // the current acknowledgement, and how many entries its history holds (acknowledgements view)
    expect(sheet.getRow(5).getCell(col('Acknowledged by')).value).toBe('ana');
    expect(sheet.getRow(5).getCell(col('Ack history')).value).toBe(3);
    expect(sheet.getRow(2).getCell(col('Ack history')).value).toBeNull();
  });

  it('shows what computed is made of, colours the rows that need a person, and totals each currency apart', async () => {
    const sheet = sheetOf((await writeFixture()).workbook, 'Disbursements');
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['Disbursement', 'Delivered at (UTC)', 'Currency', 'Reported total', 'Computed total', 'Difference', 'Status',
      'Findings', 'Payouts', 'Refunds', 'Credit adjustments', 'Debit adjustments', 'Recipient']);
    const at = (row: number, name: string) => sheet.getRow(row).getCell(header.indexOf(name) + 1);
    expect([at(2, 'Payouts').value, at(2, 'Refunds').value, at(2, 'Credit adjustments').value, at(2, 'Debit adjustments').value]).toEqual([1300, 50, 4, 20]);
    expect((at(2, 'Status').fill as ExcelJS.FillPattern).fgColor?.argb).toBe('FFFFC7CE'); // exceptions
    expect((at(3, 'Status').fill as ExcelJS.FillPattern).fgColor?.argb).toBe('FFFFEB9C'); // incomplete
    const totals = [5, 6].map((r) => [at(r, 'Disbursement').value, at(r, 'Currency').value, at(r, 'Reported total').value]);
    expect(totals).toEqual([['Total EUR', 'EUR', 1234.56], ['Total MGA', 'MGA', 1.2]]);
  });

  it('writes delivery times as date cells', async () => {
    const sheet = sheetOf((await writeFixture()).workbook, 'Disbursements');
    const delivered = sheet.getRow(2).getCell(2);
    expect(delivered.type).toBe(ExcelJS.ValueType.Date);
    expect(delivered.value).toEqual(new Date('2024-05-02T08:30:00Z'));
    expect(delivered.numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(sheet.getRow(2).getCell(4).value).toBe(1234.56);
    expect(sheet.getRow(3).getCell(4).value).toBe(1.2);
    expect(sheet.getRow(3).getCell(5).value).toBeNull();
  });

  it('summarises the run, findings by status and check, and totals per currency', async () => {
    const sheet = sheetOf((await writeFixture()).workbook, 'Summary');
    const values = sheet.getSheetValues().flatMap((row) => (Array.isArray(row) ? [row.slice(1)] : []));
    expect(values).toContainEqual(['Run', 'run_2024-05-03']);
    expect(values).toContainEqual(['Service', 'https://payments.example.test/v1']);
    expect(values).toContainEqual(['Disbursements checked', 2]);
    expect(values).toContainEqual(['new', 1]);
    expect(values).toContainEqual(['total', 5]);
    expect(values).toContainEqual(['fx', 'warning', 1]);
    expect(values).toContainEqual(['EUR', 1, 1234.56, 1234, 0.56]);
    expect(values).toContainEqual(['MGA', 1, 1.2, 0, 1.2]);
  });

  it('fits the Summary\'s money headers to their columns (wrapped, the row tall enough) and keeps amounts off the rate beside them', async () => {
    const ratesFile = join(tmp.dir, 'rates.csv');
    writeFileSync(ratesFile, 'currency,rate_to_USD,as_of\nEUR,1.0842,2026-11-26\n');
    const stakes = [{ currency: 'EUR', atStake: 565461n, causes: 2, notInBank: 299569n, elsewhere: 565461n, suspense: 0n }];
    const path = join(tmp.dir, 'stakes.xlsx');
    await writeExceptionWorkbook(path, { summary: { ...SUMMARY, stakes, rates: readRates(ratesFile) }, findings: FINDINGS, disbursements: DISBURSEMENTS });
    const sheet = sheetOf(await readWorkbook(path), 'Summary');
    let header = 0;
    sheet.eachRow((row, n) => { if (row.getCell(1).value === 'Money at stake by currency') header = n; });
    expect(header).toBeGreaterThan(0);
    const row = sheet.getRow(header);
    const headers = (row.values as unknown[]).slice(1).map(String);
    expect(headers).toEqual(['Money at stake by currency', 'At stake now', 'Causes', 'Not yet in the bank', 'Another account or currency',
      'In currency suspense', 'At stake now (USD)', 'Rate to USD', 'Rate as of']);
    headers.forEach((h, i) => {
      const width = sheet.getColumn(i + 1).width ?? 10;
      const lines = Math.ceil(h.length / Math.floor(width * 1.15));
      expect(lines === 1 || row.getCell(i + 1).alignment?.wrapText === true, h).toBe(true);
      expect(row.height ?? 15, h).toBeGreaterThanOrEqual(15 * lines);
    });
    const values = sheet.getRow(header + 1);
    for (const c of [2, 4, 5, 7, 8]) expect(values.getCell(c).alignment).toMatchObject({ horizontal: 'right', indent: 1 });
  });

  it('leaves the previous workbook in place when the rows fail half way', async () => {
    const path = join(tmp.dir, 'exceptions.xlsx');
    await writeExceptionWorkbook(path, { summary: SUMMARY, findings: FINDINGS, disbursements: DISBURSEMENTS });
    const before = readFileSync(path);
    async function* failing(): AsyncGenerator<FindingRow> {
      yield FINDINGS[0]!;
      throw new Error('database went away');
    }
    await expect(writeExceptionWorkbook(path, { summary: SUMMARY, findings: failing(), disbursements: [] }))
      .rejects.toThrow('database went away');
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(tmp.dir)).toEqual(['exceptions.xlsx']);
  });

  it('streams 20k findings from an async source and reads every row back', async () => {
    const path = join(tmp.dir, 'big.xlsx');
    const base = FINDINGS[2]!;
    const written = await writeExceptionWorkbook(path, {
      summary: SUMMARY,
      findings: generate(20_000, (i) => ({ ...base, key: `f-${i}`, expected: BigInt(i) })),
      disbursements: generate(3_000, (i) => ({ ...DISBURSEMENTS[0]!, disbursementId: `d-${i}` })),
    });
    expect(written.findings).toBe(20_000);
    const sheet = sheetOf(await readWorkbook(path), 'Exceptions');
    expect(sheet.actualRowCount).toBe(20_001);
    expect(sheet.getRow(20_001).getCell(col('Key')).value).toBe('f-19999');
    expect(sheet.getRow(20_001).getCell(col('Expected')).value).toBe(3999.8); // 19999 MGA subunits
  });
});
