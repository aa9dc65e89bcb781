import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { writeTableWorkbook } from '../../../src/report/table-workbook.js';
import { pace, sheetBacklog } from '../../../src/report/workbook-file.js';
import { generate, readWorkbook, sheetOf, dirPerTest, zipEntryText } from './helpers.js';

describe('writeTableWorkbook', () => {
  const tmp = dirPerTest();

  it('types each value by what it is and never writes a formula', async () => {
    const path = join(tmp.dir, 'result.xlsx');
    const when = new Date('2024-05-02T08:30:00Z');
    const written = await writeTableWorkbook(path, ['id', 'n', 'big', 'when', 'ok', 'note', 'list'], [
      ['=cmd|"/c calc"!A1', 42n, 2n ** 60n, when, true, null, { items: [1n, 2n] }],
      ['plain', 1.5, -3n, null, false, '@x', undefined],
    ]);
    expect(written).toEqual({ path, rows: 2 });
    const sheet = sheetOf(await readWorkbook(path), 'Result');
    const row = sheet.getRow(2);
    expect(row.getCell(1).type).toBe(ExcelJS.ValueType.String);
    expect(row.getCell(1).value).toBe('=cmd|"/c calc"!A1');
    expect(row.getCell(2).value).toBe(42);
    expect(row.getCell(3).value).toBe('1152921504606846976'); // past 2^53: exact digits as text
    expect(row.getCell(4).type).toBe(ExcelJS.ValueType.Date);
    expect(row.getCell(4).value).toEqual(when);
    expect(row.getCell(5).value).toBe(true);
    expect(row.getCell(6).value).toBeNull();
    expect(row.getCell(7).value).toBe('{"items":["1","2"]}');
    expect(sheet.getRow(3).getCell(3).value).toBe(-3);
    expect(sheet.getRow(3).getCell(6).value).toBe('@x');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe('A1:G3');
    expect(zipEntryText(path, 'xl/worksheets/sheet1.xml')).not.toMatch(/<f[\s>]/);
  });

  it('writes a header-only sheet for an empty result', async () => {
    const path = join(tmp.dir, 'empty.xlsx');
    expect(await writeTableWorkbook(path, ['a', 'b'], generate(0, () => []))).toEqual({ path, rows: 0 });
    const sheet = sheetOf(await readWorkbook(path), 'Result');
    expect(sheet.getRow(1).values).toEqual([undefined, 'a', 'b']);
    expect(sheet.actualRowCount).toBe(1);
  });
});

describe('pace', () => {
  it('finds exceljs’s unconsumed sheet bytes and waits until they drain', async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet('S');
    for (let i = 1; i <= 5_000; i++) {
      const row = sheet.getRow(i);
      row.getCell(1).value = `${'x'.repeat(400)}${i}`;
      row.commit();
    }
    // If an exceljs upgrade moves this buffer, pacing silently stops working: fail loudly here.
    expect(sheetBacklog(sheet)).toBeGreaterThan(1 << 20);
    await pace(sheet, 200);
    expect(sheetBacklog(sheet)).toBeLessThanOrEqual(1 << 20);
    sheet.commit();
    await workbook.commit();
  });
});
