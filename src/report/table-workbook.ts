// Any query result as a one-sheet workbook, for `recon sql --format xlsx`. Column types are not
// known in advance, so each value picks its own cell type.
import { DATE_TIME_FORMAT, numberFormat, setText, type CellTarget } from './cells.js';
import { describeValue } from './csv.js';
import { writeTableSheet, type ColumnSpec } from './table-sheet.js';
import type { RowSource } from './types.js';
import { writeWorkbookFile } from './workbook-file.js';

interface WrittenTable {
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
  // A `<money>_major` column (the views' major-unit companions) is shown as an amount in its row's
  // currency: 14,895.34 EUR, 1,235 JPY, 1.234 KWD.
  const currencyAt = columns.indexOf('currency');
  const specs: Array<ColumnSpec<unknown[]>> = columns.map((header, i) => ({
    header,
    width: Math.min(Math.max(header.length + 2, 12), 50),
    numeric: header.endsWith('_major'),
    write: (cell, row) => {
      setValue(cell, row[i]);
      const currency = currencyAt >= 0 ? row[currencyAt] : null;
      if (
        header.endsWith('_major') &&
        typeof cell.value === 'number' &&
        typeof currency === 'string' &&
        /^[A-Z]{3}$/.test(currency)
      )
        cell.numFmt = numberFormat(currency);
    },
  }));
  return writeWorkbookFile(path, async (workbook) => {
    const count = await writeTableSheet(workbook, 'Result', specs, rows);
    return { path, rows: count };
  }, '--out');
}

function setValue(cell: CellTarget, value: unknown): void {
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
