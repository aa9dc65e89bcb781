import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { font } from '../../../src/report/cells.js';
import { FINDING_COLUMNS } from '../../../src/report/columns.js';
import { addSheet, writeHeaderRow, writeTable, type ColumnSpec, writeCell, fitRowHeight } from '../../../src/report/table-sheet.js';
import type { FindingRow } from '../../../src/report/types.js';
import { writeWorkbookFile } from '../../../src/report/workbook-file.js';
import { FINDINGS, tempDir, zipEntryText } from './helpers.js';

type Item = { finding: FindingRow; i: number };

// Styles the sharer must not confuse: a fresh but equal font per cell, and no style at all on values
// whose default number format depends on their type (a date without numFmt is not General).
const COLUMNS: Array<ColumnSpec<Item>> = [
  ...FINDING_COLUMNS.map((c) => ({ ...c, write: (cell: ExcelJS.Cell, item: Item) => c.write(cell, item.finding) })),
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
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  async function write(path: string, fill: (sheet: ExcelJS.Worksheet) => Promise<void>): Promise<void> {
    await writeWorkbookFile(path, async (workbook) => {
      const sheet = addSheet(workbook, 'T', COLUMNS.map((c) => c.width), 1);
      await fill(sheet);
      sheet.commit();
    });
  }

  it('shares styles without changing a byte of the sheet or its styles', async () => {
    const shared = join(dir, 'shared.xlsx');
    await write(shared, async (sheet) => {
      await writeTable(sheet, 1, COLUMNS, ITEMS);
    });
    // The same cells written plainly: every row and cell keeps its own style object.
    const plain = join(dir, 'plain.xlsx');
    await write(plain, async (sheet) => {
      writeHeaderRow(sheet, 1, COLUMNS);
      ITEMS.forEach((item, r) => {
        const row = sheet.getRow(r + 2);
        COLUMNS.forEach((column, c) => writeCell(column, row.getCell(c + 1), item));
        fitRowHeight(row, COLUMNS);
        row.commit();
      });
      sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1 + ITEMS.length, column: COLUMNS.length } };
    });
    for (const entry of ['xl/worksheets/sheet1.xml', 'xl/styles.xml']) {
      expect(zipEntryText(shared, entry), entry).toBe(zipEntryText(plain, entry));
    }
  });
});
