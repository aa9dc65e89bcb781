// A sheet that is one table: bold frozen header, autofilter over the written range, fixed column
// widths (a streamed sheet cannot measure its rows before writing them), one committed row per item.
import type ExcelJS from 'exceljs';
import { BOLD, styleHeader } from './cells.js';
import type { RowSource } from './types.js';
import { pace, type StreamingWorkbook } from './workbook-file.js';

/** Excel's sheet limit; a longer sheet opens truncated or not at all. */
const EXCEL_MAX_ROWS = 1_048_576;

export interface ColumnSpec<R> {
  header: string;
  width: number;
  /** Right-aligns the header over right-aligned numbers (kept off the next column's text by an indent). */
  numeric?: boolean;
  /** Long text wraps inside the column instead of running under the next one. */
  wrap?: boolean;
  /** false: shown on screen, left out of the printed area (the printed columns come first). */
  print?: boolean;
  write: (cell: ExcelJS.Cell, row: R) => void;
}

/**
 * Adds a sheet whose first `frozenRows` rows stay visible when scrolling. Panes must be given
 * here: the streaming writer emits the sheet view as soon as the sheet is created.
 */
export function addSheet(
  workbook: StreamingWorkbook,
  name: string,
  widths: number[],
  frozenRows: number,
): ExcelJS.Worksheet {
  const views: Array<Partial<ExcelJS.WorksheetView>> =
    frozenRows > 0 ? [{ state: 'frozen', xSplit: 0, ySplit: frozenRows }] : [];
  // Printed or exported to PDF: landscape, one page wide (tables print only their printed columns, so
  // the scale stays readable), the header row on every page, and what it is and page x of y on each.
  const pageSetup: Partial<ExcelJS.PageSetup> = {
    orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0,
    margins: { left: 0.4, right: 0.4, top: 0.6, bottom: 0.6, header: 0.3, footer: 0.3 },
    ...(frozenRows > 0 ? { printTitlesRow: `${frozenRows}:${frozenRows}` } : {}),
  };
  const headerFooter: Partial<ExcelJS.HeaderFooter> = {
    oddHeader: `&L&B${name.replace(/&/g, '&&')}&Rrecon`,
    oddFooter: '&LPrinted &D &T&RPage &P of &N',
  };
  const sheet = workbook.addWorksheet(name, { views, pageSetup, headerFooter });
  sheet.columns = widths.map((width) => ({ width }));
  return sheet;
}

export type Header = string | { header: string; numeric?: boolean };

export function writeHeaderRow(sheet: ExcelJS.Worksheet, rowNumber: number, headers: readonly Header[]): void {
  const row = sheet.getRow(rowNumber);
  headers.forEach((header, i) => {
    const cell = row.getCell(i + 1);
    cell.value = typeof header === 'string' ? header : header.header;
    styleHeader(cell);
    if (typeof header !== 'string' && header.numeric) cell.alignment = { horizontal: 'right' };
  });
  row.commit();
}

/**
 * Writes header + one row per item from `rows` starting at `headerRow`, sets the autofilter over
 * the whole table and returns the number of data rows. Rows are committed as they are written.
 */
export async function writeTable<R>(
  sheet: ExcelJS.Worksheet,
  headerRow: number,
  columns: ReadonlyArray<ColumnSpec<R>>,
  rows: RowSource<R>,
): Promise<number> {
  writeHeaderRow(sheet, headerRow, columns);
  const shareStyle = styleSharer();
  let count = 0;
  for await (const item of rows) {
    if (headerRow + 1 + count > EXCEL_MAX_ROWS) {
      throw new Error(`sheet "${sheet.name}" would pass Excel's ${EXCEL_MAX_ROWS} rows; narrow the query or use CSV`);
    }
    const row = sheet.getRow(headerRow + 1 + count);
    (row as RowWithStyle).style = NO_ROW_STYLE;
    columns.forEach((column, i) => {
      const cell = row.getCell(i + 1);
      writeCell(column, cell, item);
      shareStyle(cell, i);
    });
    fitRowHeight(row, columns);
    row.commit();
    count += 1;
    await pace(sheet, count);
  }
  sheet.autoFilter = {
    from: { row: headerRow, column: 1 },
    to: { row: headerRow + Math.max(count, 1), column: columns.length },
  };
  const printed = columns.findIndex((c) => c.print === false);
  // exceljs prefixes each corner with $ for the column only: the row gets its own $, so the area stays absolute
  if (printed > 0) sheet.pageSetup.printArea = `A$1:${columnLetter(printed)}$${headerRow + Math.max(count, 1)}`;
  return count;
}

/** A table cell: the column's value, then its alignment (wrapped text, numbers kept off the next column). */
export function writeCell<R>(column: ColumnSpec<R>, cell: ExcelJS.Cell, item: R): void {
  column.write(cell, item);
  if (column.wrap) cell.alignment = WRAP;
  else if (column.numeric && cell.value !== null && cell.value !== undefined) cell.alignment = NUMBER;
  else if (!cell.alignment) cell.alignment = TOP;
}

/** The height of one line of the 11 pt body font, as Excel's default row has it. */
const LINE_HEIGHT_PT = 15;
/** A row grows for at most this many lines; the rest of a longer text is in the cell, seen when selected. */
const MAX_ROW_LINES = 8;

/**
 * How many lines `value` takes wrapped in a column `width` characters wide. Neither Excel nor LibreOffice
 * fits a row's height to wrapped text when it opens a file, so the writer sets it: estimated from the
 * text's length (a unit of column width holds about 1.2 characters of 11 pt Calibri text; words kept
 * whole), erring towards a taller row.
 */
export function wrappedLines(value: ExcelJS.CellValue, width: number): number {
  if (typeof value !== 'string' || value.length === 0) return 1;
  const perLine = Math.max(1, Math.floor(width * 1.15));
  // most cells (ids, short subjects) fit on their first line: no splitting for them (#28)
  if (value.length <= perLine && !value.includes('\n')) return 1;
  let lines = 0;
  for (const paragraph of value.split('\n')) {
    let line = 0;
    lines += 1;
    for (const word of paragraph.split(' ')) {
      const needed = line === 0 ? word.length : line + 1 + word.length;
      if (needed <= perLine) {
        line = needed;
        continue;
      }
      // the word starts a new line; a word longer than a line breaks over several
      if (line > 0) lines += 1;
      lines += Math.floor(Math.max(0, word.length - 1) / perLine);
      line = word.length % perLine || perLine;
    }
    if (lines >= MAX_ROW_LINES) return MAX_ROW_LINES;
  }
  return Math.min(lines, MAX_ROW_LINES);
}

/** Makes a written row tall enough for its wrapped columns' text (one line: the default height). */
export function fitRowHeight<R>(row: ExcelJS.Row, columns: ReadonlyArray<ColumnSpec<R>>): void {
  let lines = 1;
  columns.forEach((column, i) => {
    if (column.wrap) lines = Math.max(lines, wrappedLines(row.getCell(i + 1).value, column.width));
  });
  if (lines > 1) row.height = LINE_HEIGHT_PT * lines;
}

/** Text wraps at the column's width, top-aligned so a tall row still reads from its first line. */
const WRAP: Partial<ExcelJS.Alignment> = Object.freeze({ wrapText: true, vertical: 'top' });
/** Right-aligned with a gap before the next column's text ("0count_payments" never happens). */
const NUMBER: Partial<ExcelJS.Alignment> = Object.freeze({ horizontal: 'right', indent: 1, vertical: 'top' });
/** Every other cell reads from the top too, level with the first line of a wrapped neighbour. */
const TOP: Partial<ExcelJS.Alignment> = Object.freeze({ vertical: 'top' });

/** 1 → A, 27 → AA. */
export function columnLetter(n: number): string {
  let s = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(65 + ((k - 1) % 26)) + s;
  return s;
}

/**
 * A row's own style goes through the same style-id lookup as a cell's (below), and every row starts
 * with a fresh `{}`: one shared empty style is looked up once. It is the default style, so rows still
 * carry no `s=`.
 */
const NO_ROW_STYLE: Partial<ExcelJS.Style> = Object.freeze({});
/** exceljs 4 keeps a row's style in `style`, as for a cell; its typings leave it out. */
type RowWithStyle = ExcelJS.Row & { style: Partial<ExcelJS.Style> };

/** A style as its properties, to compare them part by part. */
type Style = Record<string, unknown>;

/**
 * exceljs finds a cell's style id by rendering its style to XML, unless it has seen that very style
 * object before (a WeakMap by identity) — and every cell starts with a fresh `{}`. On a large table that
 * lookup was most of the writing time. Cells whose style reads the same (same value type, which decides
 * the default number format, and same properties) get one shared object, so exceljs renders each
 * distinct style once; the ids, and so the file, are the same. Call it once the cell is written: the
 * shared object is frozen.
 */
function styleSharer(): (cell: ExcelJS.Cell, column: number) => void {
  const shared = new Map<string, Style>();
  // Parts of a style (font, fill, …) are mostly the same constant objects: named by identity, and by
  // content the first time an object is seen, so a fresh but equal object still finds its style.
  const names = new WeakMap<object, string>();
  const byContent = new Map<string, string>();
  const nameOf = (part: unknown): string => {
    if (typeof part !== 'object' || part === null) return JSON.stringify(part);
    let name = names.get(part);
    if (name === undefined) {
      const content = JSON.stringify(part);
      name = byContent.get(content) ?? String(byContent.size);
      byContent.set(content, name);
      names.set(part, name);
    }
    return name;
  };
  const canonicalOf = (cell: ExcelJS.Cell): Style => {
    const style = cell.style as Style;
    let key = String(cell.type);
    for (const property in style) key += `|${property}=${nameOf(style[property])}`;
    let canonical = shared.get(key);
    if (!canonical) {
      canonical = Object.freeze(style);
      shared.set(key, canonical);
    }
    return canonical;
  };
  // Building that key for every cell cost about as much again. A column uses a handful of styles,
  // made of the same part objects cell after cell, so each column keeps the shared styles it has
  // used, and a cell of the same type whose parts are those very objects takes one without a key.
  const usedBy: Array<Array<{ type: ExcelJS.ValueType; style: Style; size: number }>> = [];
  return (cell, column) => {
    const style = cell.style as Style;
    const { type } = cell;
    const used = (usedBy[column] ??= []);
    for (const known of used) {
      if (known.type === type && sameParts(known.style, known.size, style)) {
        cell.style = known.style;
        return;
      }
    }
    const canonical = canonicalOf(cell);
    const size = Object.keys(canonical).length;
    // Kept only when the parts are the very objects: a part built afresh for every cell would
    // otherwise add an entry per cell.
    if (sameParts(canonical, size, style)) used.push({ type, style: canonical, size });
    cell.style = canonical;
  };
}

/** True when `style` has exactly `known`'s `size` properties, each the same value or object. */
function sameParts(known: Style, size: number, style: Style): boolean {
  let n = 0;
  for (const property in style) {
    if (known[property] !== style[property]) return false;
    n += 1;
  }
  return n === size;
}

/** A whole sheet that is just one table with its header on row 1. Commits the sheet. */
export async function writeTableSheet<R>(
  workbook: StreamingWorkbook,
  name: string,
  columns: ReadonlyArray<ColumnSpec<R>>,
  rows: RowSource<R>,
): Promise<number> {
  const sheet = addSheet(workbook, name, columns.map((c) => c.width), 1);
  const count = await writeTable(sheet, 1, columns, rows);
  sheet.commit();
  return count;
}

/** Label/value pairs down columns A and B (the top of a Summary sheet). Returns the next free row. */
export function writeFields(
  sheet: ExcelJS.Worksheet,
  startRow: number,
  fields: Array<[label: string, write: (cell: ExcelJS.Cell) => void]>,
): number {
  fields.forEach(([label, write], i) => {
    const row = sheet.getRow(startRow + i);
    row.getCell(1).value = label;
    row.getCell(1).font = BOLD;
    write(row.getCell(2));
    row.commit();
  });
  return startRow + fields.length;
}

/** A small fixed table inside a sheet (no autofilter). Returns the next free row. */
export function writeSmallTable<R>(
  sheet: ExcelJS.Worksheet,
  headerRow: number,
  columns: ReadonlyArray<Omit<ColumnSpec<R>, 'width'>>,
  rows: readonly R[],
): number {
  writeHeaderRow(sheet, headerRow, columns);
  rows.forEach((item, i) => {
    const row = sheet.getRow(headerRow + 1 + i);
    columns.forEach((column, j) => column.write(row.getCell(j + 1), item));
    row.commit();
  });
  return headerRow + 1 + rows.length;
}
