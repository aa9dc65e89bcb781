// A long list on a sheet of its own, never past Excel's rows whatever the store holds. Its rows are counted
// before the first is written, so a sheet that cannot hold them all says so in lines above its header: it
// shows the first ones, and every row goes to a CSV beside the workbook (written whole or not at all, by
// csv.ts's quoting), named in those lines with where else the whole list is (a view of the snapshot).
import path from 'node:path';
import type { WriteStream } from 'node:fs';
import type ExcelJS from 'exceljs';
import { streamInto, writeFileAtomically } from '../files.js';
import { BOLD, setText } from './cells.js';
import { CSV_EOL, toCsvRecord } from './csv.js';
import { addSheet, EXCEL_MAX_ROWS, writeTable, type ColumnSpec, type RowSink } from './table-sheet.js';
import type { CountedRows, RowSource } from './types.js';

export type { CountedRows } from './types.js';
import type { StreamingWorkbook } from './workbook-file.js';

/** How many rows the list holds, or null when it does not say. */
export function countOf<T>(list: CountedRows<T>): number | null {
  if (Array.isArray(list)) return list.length;
  return isCounted(list) ? list.count : null;
}

export function rowsOf<T>(list: CountedRows<T>): RowSource<T> {
  return isCounted(list) ? list.rows : list;
}

const isCounted = <T>(list: CountedRows<T>): list is { rows: RowSource<T>; count: number } =>
  typeof (list as { count?: unknown }).count === 'number' && 'rows' in list;

/**
 * What each sheet of one workbook is held to: its rows (Excel's limit; a test gives a small one) and the CSVs beside
 * it.
 */
export interface SheetRoom {
  maxRows: number;
  /** The CSV that takes a sheet's whole list when the sheet cannot. */
  csvFor(sheet: string): string;
}

/** `recon-…-171c.xlsx` → `recon-…-171c-open-findings.csv` for the sheet "Open findings", beside it. */
export function roomBeside(workbookPath: string, maxRows: number = EXCEL_MAX_ROWS): SheetRoom {
  const base = workbookPath.replace(/\.xlsx$/i, '');
  return { maxRows, csvFor: (sheet) => `${base}-${sheet.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.csv` };
}

interface ListLayout {
  headerRow: number;
  /** Rows of the list the sheet shows (all of them unless it overflows). */
  shown: number;
  overflows: boolean;
}

/** Lines the overflow note takes above the header (then a blank row). */
const NOTE_LINES = 2;

/**
 * Where a list of `count` rows goes on its sheet: below `above` lines of the caller's (and a blank row)
 * and, when the sheet cannot hold them with `below` rows kept free under the table, below the note that
 * says so. Known before writing, so a link to a row of the list can be made on an earlier sheet.
 */
export function listLayout(maxRows: number, count: number, above = 0, below = 0): ListLayout {
  const headerAt = (lines: number) => (lines > 0 ? lines + 2 : 1);
  const fits = maxRows - headerAt(above) - below;
  if (count <= fits) return { headerRow: headerAt(above), shown: count, overflows: false };
  const headerRow = headerAt(above + NOTE_LINES);
  return { headerRow, shown: Math.max(0, maxRows - headerRow - below), overflows: true };
}

interface ListSheetOptions {
  /** Lines above the header, the first in bold (the Bank sheet's refused files). */
  above?: string[];
  /** Rows kept free under the table (the Disbursements sheet's totals). */
  below?: number;
  /** Where else the whole list is, as an accountant reaches it: `recon sql "SELECT * FROM reconciliation"`. */
  whole?: string;
  /** Left uncommitted: the caller writes under the table (from `nextRow`, the Disbursements sheet's totals). */
  open?: boolean;
}

interface WrittenList {
  /** Committed, unless the caller asked for it `open`. */
  sheet: ExcelJS.Worksheet;
  count: number;
  shown: number;
  /** The CSV holding every row, when the sheet could not. */
  csv: string | null;
  nextRow: number;
}

/** The list on a new sheet `name`, its rows bounded by `room` (module comment). */
export async function writeListTableSheet<R>(
  workbook: StreamingWorkbook,
  room: SheetRoom,
  name: string,
  columns: ReadonlyArray<ColumnSpec<R>>,
  list: CountedRows<R>,
  o: ListSheetOptions = {},
): Promise<WrittenList> {
  const count = countOf(list);
  const above = o.above ?? [];
  const layout = listLayout(room.maxRows, count ?? 0, above.length, o.below ?? 0);
  if (count === null) layout.shown = room.maxRows - layout.headerRow - (o.below ?? 0);
  const csv = layout.overflows ? room.csvFor(name) : null;
  const lines = csv ? [overflowNote(layout.shown, count ?? 0, room.maxRows), wholeNote(csv, o.whole), ...above] : above;
  const sheet = addSheet(
    workbook,
    name,
    columns.map((c) => c.width),
    layout.headerRow,
  );
  // the note in bold, and the first of the caller's lines (a title)
  const bold = new Set([...(csv ? [0, 1] : []), csv ? NOTE_LINES : 0]);
  lines.forEach((text, i) => {
    const cell = sheet.getRow(1 + i).getCell(1);
    setText(cell, text);
    if (bold.has(i)) cell.font = BOLD;
    sheet.getRow(1 + i).commit();
  });
  const bound = { capacity: layout.shown };
  const written =
    csv === null
      ? await writeTable(sheet, layout.headerRow, columns, rowsOf(list), bound)
      : await writeFileAtomically(
          csv,
          (temp) =>
            streamInto(temp, async (out) => {
              const sink = new CsvSink(out);
              await sink.add(columns.map((c) => c.header));
              const n = await writeTable(sheet, layout.headerRow, columns, rowsOf(list), { ...bound, whole: sink });
              await sink.flush();
              return n;
            }),
          REPORTS_SETTING,
        );
  const shown = Math.min(written, layout.shown);
  if (!o.open) sheet.commit();
  return { sheet, count: written, shown, csv, nextRow: layout.headerRow + Math.max(shown, 1) + 1 };
}

const REPORTS_SETTING = '--reports / RECON_REPORTS_DIR';

const number = (n: number) => n.toLocaleString('en-US');

function overflowNote(shown: number, count: number, maxRows: number): string {
  return `This sheet shows the first ${number(shown)} of ${number(count)} rows: a sheet holds at most ` +
           `${number(maxRows)} rows.`;
}

function wholeNote(csv: string, whole: string | undefined): string {
  // a command ends the line: no full stop to be copied with it
  return `Every row is in ${path.basename(csv)}, beside this ` +
           `workbook${whole ? `, and in the published snapshot: ${whole}` : '.'}`;
}

/** Records to a CSV stream, in blocks, waiting when the stream asks to. */
class CsvSink implements RowSink {
  private block = '';
  constructor(private readonly out: WriteStream) {}

  async add(values: readonly unknown[]): Promise<void> {
    this.block += toCsvRecord(values) + CSV_EOL;
    if (this.block.length >= CSV_BLOCK_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    const block = this.block;
    this.block = '';
    if (block !== '' && !this.out.write(block)) await new Promise<void>((resolve) => this.out.once('drain', resolve));
  }
}

const CSV_BLOCK_CHARS = 1 << 16;
