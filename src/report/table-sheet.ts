// A sheet that is one table: bold frozen header, autofilter over the written range, fixed column
// widths (a streamed sheet cannot measure its rows before writing them), one committed row per item.
import ExcelJS from 'exceljs';
import { BOLD, styleHeader, type CellTarget } from './cells.js';
import type { RowSource } from './types.js';
import { pace, type StreamingWorkbook } from './workbook-file.js';
import { detachedSheet, sheetRows, xmlText, type SheetRows } from './xlsx-parts.js';

const { ValueType } = ExcelJS;

/** Excel's sheet limit; a longer sheet opens truncated or not at all. */
export const EXCEL_MAX_ROWS = 1_048_576;

/** Where the rows of a table go that its sheet cannot hold (list-sheet.ts): each row's cell values, in column order. */
export interface RowSink {
  add(values: readonly ExcelJS.CellValue[]): Promise<void>;
}

/**
 * How many rows a table's sheet holds (Excel's limit below its header by default), and where every row
 * goes too when there may be more (a CSV): the rows past `capacity` go there only.
 */
interface TableBound {
  capacity: number;
  whole?: RowSink;
}

export interface ColumnSpec<R> {
  header: string;
  width: number;
  /** Right-aligns the header over right-aligned numbers (kept off the next column's text by an indent). */
  numeric?: boolean;
  /** Long text wraps inside the column instead of running under the next one. */
  wrap?: boolean;
  /** false: shown on screen, left out of the printed area (the printed columns come first). */
  print?: boolean;
  write: (cell: CellTarget, row: R) => void;
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

type Header = string | { header: string; numeric?: boolean };

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
 * the whole table and returns the number of data rows. Rows are committed as they are written. The sheet
 * takes at most `bound.capacity` rows; with `bound.whole` every row goes there as well, and the rest only
 * there (without it, a row past the capacity is an error: the caller counts its rows first).
 *
 * The header goes through exceljs; the data rows are rendered here, as exceljs 4.4 renders a row
 * whose cells were written by writeCell, byte for byte (test/unit/report/table-sheet.test.ts holds it to
 * a plain exceljs write): each column writes into one reused TableCell, each distinct style of a column is
 * given its id once, and the row's XML goes to the sheet through xlsx-parts.ts's sheetRows. exceljs's
 * own path built a Row, a Cell and a value object per cell and rendered each through its xforms.
 */
export async function writeTable<R>(
  sheet: ExcelJS.Worksheet,
  headerRow: number,
  columns: ReadonlyArray<ColumnSpec<R>>,
  rows: RowSource<R>,
  bound: TableBound = { capacity: EXCEL_MAX_ROWS - headerRow },
): Promise<number> {
  writeHeaderRow(sheet, headerRow, columns);
  const out = sheetRows(sheet, headerRow + 1);
  const cells = columns.map((_, i) => new TableCell(sheet, columnLetter(i + 1)));
  const styles = columns.map(() => new ColumnStyles(out));
  const rowEnd = ` spans="1:${columns.length}" x14ac:dyDescent="0.25"`;
  const whole = bound.whole ? wholeRows(bound.whole, sheet.name, columns) : null;
  let xml = '';
  let count = 0;
  for await (const item of rows) {
    const number = headerRow + 1 + count;
    if (count >= bound.capacity) {
      if (!whole)
        throw new Error(
          `sheet "${sheet.name}" would pass its ${headerRow + bound.capacity} rows; narrow the query or use CSV`,
        );
      await whole.past(item);
      count += 1;
      continue;
    }
    let lines = 1;
    let hasValues = false;
    let body = '';
    for (let i = 0; i < columns.length; i += 1) {
      const column = columns[i]!;
      const cell = cells[i]!;
      cell.reset(number);
      writeCell(column, cell, item);
      const { value } = cell;
      if (column.wrap && typeof value === 'string') lines = Math.max(lines, wrappedLines(value, column.width));
      const type = valueType(value);
      if (type !== NULL) hasValues = true;
      body += renderCell(cell.address, styles[i]!.id(cell, type), type, value);
    }
    // as exceljs: a row with no value and the default height is left out; one with no cell is empty
    if (hasValues || lines > 1) {
      xml += `<row r="${number}"${lines > 1 ? ` ht="${LINE_HEIGHT_PT * lines}" customHeight="1"` : ''}${rowEnd}`;
      xml += body === '' ? '/>' : `>${body}</row>`;
    }
    if (whole) await whole.shown(cells);
    count += 1;
    if (count % FLUSH_EVERY_ROWS === 0) {
      out.append(xml, number + 1);
      xml = '';
    }
    await pace(sheet, count);
  }
  const shown = Math.min(count, bound.capacity);
  out.append(xml, headerRow + 1 + shown);
  sheet.autoFilter = {
    from: { row: headerRow, column: 1 },
    to: { row: headerRow + Math.max(shown, 1), column: columns.length },
  };
  const printed = columns.findIndex((c) => c.print === false);
  // exceljs prefixes each corner with $ for the column only: the row gets its own $, so the area stays absolute
  if (printed > 0) sheet.pageSetup.printArea = `A$1:${columnLetter(printed)}$${headerRow + Math.max(shown, 1)}`;
  return count;
}

/**
 * A table's rows as values for its sink: those on the sheet from the cells just written, those past it
 * written by the same columns into cells of a stand-in sheet (their links go nowhere).
 */
function wholeRows<R>(sink: RowSink, name: string, columns: ReadonlyArray<ColumnSpec<R>>) {
  const stand = detachedSheet(name);
  const cells = columns.map((_, i) => new TableCell(stand.sheet, columnLetter(i + 1)));
  return {
    shown: (written: readonly TableCell[]) => sink.add(written.map((c) => c.value)),
    past: async (item: R) => {
      stand.forget();
      for (let i = 0; i < columns.length; i += 1) {
        cells[i]!.reset(2);
        writeCell(columns[i]!, cells[i]!, item);
      }
      await sink.add(cells.map((c) => c.value));
    },
  };
}

/** Rows are handed to the sheet in batches, as often as pace() yields, so deflate gets them in time. */
const FLUSH_EVERY_ROWS = 50;

/** A table cell: the column's value, then its alignment (wrapped text, numbers kept off the next column). */
export function writeCell<R>(column: ColumnSpec<R>, cell: CellTarget, item: R): void {
  column.write(cell, item);
  if (column.wrap) cell.alignment = WRAP;
  else if (column.numeric && cell.value !== null && cell.value !== undefined) cell.alignment = NUMBER;
  else if (!cell.alignment) cell.alignment = TOP;
}

/** The height of one line of the 11 pt body font, as Excel's default row has it. */
export const LINE_HEIGHT_PT = 15;
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
  // most cells (ids, short subjects) fit on their first line: no splitting for them
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

const { Null: NULL, Number: NUMBER_TYPE, String: STRING_TYPE, Date: DATE_TYPE, Boolean: BOOLEAN_TYPE } = ValueType;

/** exceljs's value type of what a table cell holds; tables hold text, numbers, dates and booleans only. */
function valueType(value: ExcelJS.CellValue): ExcelJS.ValueType {
  if (value === null || value === undefined) return NULL;
  if (typeof value === 'string') return STRING_TYPE;
  if (typeof value === 'number') return NUMBER_TYPE;
  if (typeof value === 'boolean') return BOOLEAN_TYPE;
  if (value instanceof Date) return DATE_TYPE;
  throw new Error(`a table cell holds text, a number, a date or a boolean, not ${JSON.stringify(value)}`);
}

/** `<c>` as exceljs 4.4's CellXform.render writes it for these types (no shared strings, 1900 dates). */
function renderCell(address: string, styleId: number, type: ExcelJS.ValueType, value: ExcelJS.CellValue): string {
  if (type === NULL) return styleId ? `<c r="${address}" s="${styleId}"/>` : '';
  const open = styleId ? `<c r="${address}" s="${styleId}"` : `<c r="${address}"`;
  switch (type) {
    case STRING_TYPE:
      return `${open} t="str"><v>${xmlText(value as string)}</v></c>`;
    case NUMBER_TYPE:
      return `${open}><v>${xmlText(String(value))}</v></c>`;
    case DATE_TYPE:
      return `${open}><v>${xmlText(String(25569 + (value as Date).getTime() / (24 * 3600 * 1000)))}</v></c>`;
    default:
      return `${open} t="b"><v>${value ? '1' : '0'}</v></c>`;
  }
}

/**
 * What a column writer gets for a table cell: the properties of an exceljs Cell the writers use (its
 * value and its style's parts), one object per column reused row after row. It is sealed, so a writer
 * that sets anything else (a note, a merge) fails loudly instead of being dropped.
 */
class TableCell {
  value: ExcelJS.CellValue = null;
  numFmt: string | undefined = undefined;
  font: Partial<ExcelJS.Font> | undefined = undefined;
  fill: ExcelJS.Fill | undefined = undefined;
  border: Partial<ExcelJS.Borders> | undefined = undefined;
  alignment: Partial<ExcelJS.Alignment> | undefined = undefined;
  protection: Partial<ExcelJS.Protection> | undefined = undefined;
  address = '';
  constructor(readonly worksheet: ExcelJS.Worksheet, private readonly letter: string) {
    Object.seal(this);
  }

  reset(row: number): void {
    this.value = null;
    this.numFmt = undefined;
    this.font = undefined;
    this.fill = undefined;
    this.border = undefined;
    this.alignment = undefined;
    this.protection = undefined;
    this.address = this.letter + row;
  }
}

interface KnownStyle {
  type: ExcelJS.ValueType;
  numFmt: string | undefined;
  font: object | undefined;
  fill: object | undefined;
  border: object | undefined;
  alignment: object | undefined;
  protection: object | undefined;
  id: number;
}

/**
 * The style ids of one column. exceljs asks its style registry for every cell, which renders the style to
 * XML unless it saw that very object before. A column uses a handful of styles made of the same constant
 * part objects (cells.ts), so an id is remembered by the identity of the parts and the value type (which
 * decides the default number format); parts built afresh for a cell are matched by content instead.
 */
class ColumnStyles {
  private readonly known: KnownStyle[] = [];
  private readonly byContent = new Map<string, number>();
  constructor(private readonly out: SheetRows) {}

  id(cell: TableCell, type: ExcelJS.ValueType): number {
    const { numFmt, font, fill, border, alignment, protection } = cell;
    for (const k of this.known) {
      if (k.type === type && k.numFmt === numFmt && k.font === font && k.fill === fill && k.border === border
        && k.alignment === alignment && k.protection === protection) return k.id;
    }
    const style: Partial<ExcelJS.Style> = {};
    if (numFmt !== undefined) style.numFmt = numFmt;
    if (font !== undefined) style.font = font;
    if (fill !== undefined) style.fill = fill;
    if (border !== undefined) style.border = border;
    if (alignment !== undefined) style.alignment = alignment;
    if (protection !== undefined) style.protection = protection;
    const key = `${type}|${JSON.stringify(style)}`;
    let id = this.byContent.get(key);
    if (id === undefined) {
      id = this.out.styleId(style, type);
      this.byContent.set(key, id);
    }
    if (this.known.length < MAX_KNOWN_STYLES)
      this.known.push({ type, numFmt, font, fill, border, alignment, protection, id });
    return id;
  }
}

/** Past this many part combinations in one column (parts built per cell) a style is found by content. */
const MAX_KNOWN_STYLES = 32;

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

/**
 * A small fixed table inside a sheet (no autofilter), in the sheet's own column widths: a header longer than
 * its column wraps (the row as tall as the longest needs), and a numeric column is right-aligned with a gap
 * before the next, so an amount never runs into its neighbour's text. Returns the next free row.
 */
export function writeSmallTable<R>(
  sheet: ExcelJS.Worksheet,
  headerRow: number,
  columns: ReadonlyArray<Omit<ColumnSpec<R>, 'width'>>,
  rows: readonly R[],
): number {
  const header = sheet.getRow(headerRow);
  let lines = 1;
  columns.forEach((column, j) => {
    const cell = header.getCell(j + 1);
    cell.value = column.header;
    styleHeader(cell);
    cell.alignment = { ...WRAP, ...(column.numeric ? { horizontal: 'right' } : {}) };
    lines = Math.max(lines, wrappedLines(column.header, sheet.getColumn(j + 1).width ?? 10));
  });
  if (lines > 1) header.height = 15 * lines;
  header.commit();
  rows.forEach((item, i) => {
    const row = sheet.getRow(headerRow + 1 + i);
    columns.forEach((column, j) => {
      const cell = row.getCell(j + 1);
      column.write(cell, item);
      if (column.numeric) cell.alignment = NUMBER;
    });
    row.commit();
  });
  return headerRow + 1 + rows.length;
}
