import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { font, setText, type CellTarget } from '../../../src/report/cells.js';
import { FINDING_COLUMNS } from '../../../src/report/columns.js';
import { addSheet, writeHeaderRow, writeTable, type ColumnSpec, writeCell, wrappedLines, LINE_HEIGHT_PT } from '../../../src/report/table-sheet.js';
import type { FindingRow } from '../../../src/report/types.js';
import { writeWorkbookFile } from '../../../src/report/workbook-file.js';
import { linkInside } from '../../../src/report/xlsx-parts.js';
import { FINDINGS, readWorkbook, sheetOf, dirPerTest, zipEntryText } from './helpers.js';

type Item = { finding: FindingRow; i: number };

/**
 * The reference: the same table written through exceljs's own rows and cells (header, each cell by
 * writeCell, the row's height from its wrapped text, the autofilter), as writeTable once wrote it.
 */
function writePlainTable<R>(sheet: ExcelJS.Worksheet, headerRow: number, columns: ReadonlyArray<ColumnSpec<R>>, items: readonly R[]): void {
  writeHeaderRow(sheet, headerRow, columns);
  items.forEach((item, r) => {
    const row = sheet.getRow(headerRow + 1 + r);
    let lines = 1;
    columns.forEach((column, c) => {
      const cell = row.getCell(c + 1);
      writeCell(column, cell, item);
      if (column.wrap) lines = Math.max(lines, wrappedLines(cell.value, column.width));
    });
    if (lines > 1) row.height = LINE_HEIGHT_PT * lines;
    row.commit();
  });
  sheet.autoFilter = { from: { row: headerRow, column: 1 }, to: { row: headerRow + items.length, column: columns.length } };
}

// Styles the sharer must not confuse: a fresh but equal font per cell, and no style at all on values
// whose default number format depends on their type (a date without numFmt is not General).
const COLUMNS: Array<ColumnSpec<Item>> = [
  ...FINDING_COLUMNS.map((c) => ({ ...c, write: (cell: CellTarget, item: Item) => c.write(cell, item.finding) })),
  { header: 'Italic', width: 10, write: (cell, { i }) => {
    cell.value = `n${i}`;
    cell.font = font({ italic: true });
  } },
  { header: 'Mixed', width: 10, write: (cell, { i }) => {
    cell.value = i % 3 === 0 ? new Date(Date.UTC(2024, 4, 1 + i)) : i % 3 === 1 ? i : `t${i}`;
  } },
];

const ITEMS: Item[] = Array.from({ length: 60 }, (_, i) => {
  const finding = FINDINGS[i % FINDINGS.length]!;
  return { i, finding: { ...finding, status: (['new', 'open', 'acknowledged', 'resolved'] as const)[i % 4]!,
    actual: i % 7 === 0 ? 10n ** 17n : finding.actual, ageDays: i % 11 === 0 ? 1e16 : i } };
});

describe('writeTable', () => {
  const tmp = dirPerTest();

  async function write(path: string, fill: (sheet: ExcelJS.Worksheet) => Promise<void>): Promise<void> {
    await writeWorkbookFile(path, async (workbook) => {
      const sheet = addSheet(workbook, 'T', COLUMNS.map((c) => c.width), 1);
      await fill(sheet);
      sheet.commit();
    });
  }

  it('shares styles without changing a byte of the sheet or its styles', async () => {
    const shared = join(tmp.dir, 'shared.xlsx');
    await write(shared, async (sheet) => {
      await writeTable(sheet, 1, COLUMNS, ITEMS);
    });
    // The same cells written plainly: every row and cell keeps its own style object.
    const plain = join(tmp.dir, 'plain.xlsx');
    await write(plain, async (sheet) => {
      writePlainTable(sheet, 1, COLUMNS, ITEMS);
    });
    for (const entry of ['xl/worksheets/sheet1.xml', 'xl/styles.xml']) {
      expect(zipEntryText(shared, entry), entry).toBe(zipEntryText(plain, entry));
    }
  });

  // Rows rendered by recon against exceljs's own rendering of the same cells: a table below other rows
  // and with rows after it (the close's Summary), links inside the workbook, booleans, XML specials and
  // characters XML cannot carry, rows with nothing in them (left out) or only an empty wrapped cell.
  const EDGE: Array<ColumnSpec<number>> = [
    { header: 'Text', width: 12, write: (c, i) => setText(c, i % 5 === 4 ? null : ['a<b & "c" \'d\'', 'ctl\u0001\u001f\u007f end', '=1+1', 'x'.repeat(30) + ' y'][i % 4]!) },
    { header: 'Link', width: 10, write: (c, i) => {
      if (i % 5 === 4) return;
      setText(c, `dsb_${i}`);
      if (i % 2 === 0 && linkInside(c, 'T', `A${i + 2}`)) c.font = font({ underline: true });
    } },
    { header: 'Flag', width: 8, write: (c, i) => { if (i % 5 !== 4) c.value = i % 3 === 0; } },
    { header: 'Wrapped', width: 10, wrap: true, write: (c, i) => { if (i % 5 !== 4) c.value = i % 2 ? 'one two three four five six seven eight nine ten' : null; } },
    { header: 'Number', width: 10, numeric: true, write: (c, i) => { if (i % 5 !== 4) c.value = i % 3 ? i / 7 : null; } },
  ];
  const EDGE_ITEMS = Array.from({ length: 23 }, (_, i) => i);

  it('renders rows as exceljs does around rows exceljs writes itself, links and odd text included', async () => {
    const above = (sheet: ExcelJS.Worksheet) => {
      const title = sheet.getRow(1);
      title.getCell(1).value = 'Title';
      title.commit();
    };
    const below = (sheet: ExcelJS.Worksheet) => {
      const row = sheet.getRow(3 + EDGE_ITEMS.length + 2);
      row.getCell(1).value = 'Total';
      row.getCell(1).font = font({ bold: true });
      row.commit();
    };
    const rendered = join(tmp.dir, 'rendered.xlsx');
    await write(rendered, async (sheet) => {
      above(sheet);
      await writeTable(sheet, 3, EDGE, EDGE_ITEMS);
      below(sheet);
    });
    const plain = join(tmp.dir, 'plain.xlsx');
    await write(plain, async (sheet) => {
      above(sheet);
      writePlainTable(sheet, 3, EDGE, EDGE_ITEMS);
      below(sheet);
    });
    for (const entry of ['xl/worksheets/sheet1.xml', 'xl/styles.xml', 'xl/worksheets/_rels/sheet1.xml.rels']) {
      const text = (path: string) => { try { return zipEntryText(path, entry); } catch { return 'none'; } };
      expect(text(rendered), entry).toBe(text(plain));
    }
    const sheet = sheetOf(await readWorkbook(rendered), 'T');
    expect(sheet.getCell('A4').value).toBe('a<b & "c" \'d\'');
    expect(sheet.getCell('A5').value).toBe('ctl end');
    expect(sheet.getCell('A6').value).toBe('=1+1');
    expect(sheet.getCell('C4').value).toBe(true);
    expect(sheet.getRow(8).hasValues).toBe(false);
    expect(sheet.getRow(5).height).toBeGreaterThan(15);
    expect(sheet.getCell(`A${3 + EDGE_ITEMS.length + 2}`).value).toBe('Total');
  });

  it('says so when a row after the header was created first, or a cell holds what a table does not write', async () => {
    await expect(write(join(tmp.dir, 'early.xlsx'), async (sheet) => {
      sheet.getRow(3).getCell(1).value = 'early';
      await writeTable(sheet, 1, EDGE, EDGE_ITEMS);
    })).rejects.toThrow(/rows before 2 must be committed and none after created/);
    await expect(write(join(tmp.dir, 'formula.xlsx'), async (sheet) => {
      await writeTable(sheet, 1, [{ header: 'F', width: 8, write: (c) => { c.value = { formula: '1+1', date1904: false }; } }], [1]);
    })).rejects.toThrow(/a table cell holds text, a number, a date or a boolean/);
  });
});
