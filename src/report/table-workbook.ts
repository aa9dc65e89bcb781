// Any query result as a one-sheet workbook, for `recon sql --format xlsx`. Column types are not
// known in advance, so each value picks its own cell type.
import type ExcelJS from 'exceljs';
import { DATE_TIME_FORMAT, setText } from './cells.js';
import { describeValue } from './csv.js';
import { writeTableSheet, type ColumnSpec } from './table-sheet.js';
import type { RowSource } from './types.js';
import { writeWorkbookFile } from './workbook-file.js';

export interface WrittenTable {
  path: string;
  rows: number;
}

/**
 * Streams `rows` (arrays in column order) into a sheet named "Result" with a frozen, filterable
 * header. bigint → number when it fits exactly in a double, else its exact digits as text;
 * Date → date cell; string and anything else → plain string cell.
 */
export async function writeTableWorkbook(
  path: string,
  columns: string[],
  rows: RowSource<unknown[]>,
): Promise<WrittenTable> {
  const specs: Array<ColumnSpec<unknown[]>> = columns.map((header, i) => ({
    header,
    width: Math.min(Math.max(header.length + 2, 12), 50),
    write: (cell, row) => setValue(cell, row[i]),
  }));
  return writeWorkbookFile(path, async (workbook) => {
    const count = await writeTableSheet(workbook, 'Result', specs, rows);
    return { path, rows: count };
  });
}

export function setValue(cell: ExcelJS.Cell, value: unknown): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'bigint') {
    const safe = value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER);
    if (safe) cell.value = Number(value);
    else setText(cell, value.toString());
    return;
  }
  if (typeof value === 'number') {
    if (Number.isFinite(value)) cell.value = value;
    else setText(cell, String(value));
    return;
  }
  if (typeof value === 'boolean') {
    cell.value = value;
    return;
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return;
    cell.value = value;
    cell.numFmt = DATE_TIME_FORMAT;
    return;
  }
  setText(cell, typeof value === 'string' ? value : describeValue(value));
}
