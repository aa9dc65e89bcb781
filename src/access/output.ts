// A query's rows as the accountant asked for them: an aligned table for a terminal, CSV, JSON or xlsx.
// Written to a stream with its back-pressure respected (a slow pipe never makes the rows pile up in
// memory); to a file only through a temp file renamed into place when the last row is out.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { toCsvRecord, CSV_EOL } from '../report/csv.js';
import { safeText, terminalText } from '../report/safe-text.js';
import { streamInto, writeFileAtomically } from '../files.js';
import type { QueryRows } from './query.js';

export type Format = 'table' | 'csv' | 'json' | 'xlsx';
export const FORMATS: readonly Format[] = ['table', 'csv', 'json', 'xlsx'];

/** Rows shown by the table format (a terminal is no place for more). */
const TABLE_ROWS = 10_000;

function plain(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object')
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return String(value);
}

function jsonValue(value: unknown): unknown {
  if (typeof value === 'bigint')
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonValue(v)]));
  return value;
}

/** Writes text, waiting while the stream's buffer is full; a stream error ends the wait with that error. */
function writerOf(out: Writable): (text: string) => Promise<void> {
  let failure: Error | null = null;
  out.on('error', (err: Error) => (failure ??= err));
  return async (text) => {
    if (failure) throw failure;
    if (!out.write(text))
      await Promise.race([once(out, 'drain'), once(out, 'error').then(([err]) => Promise.reject(err as Error))]);
  };
}

/** The rows in a text format (table, csv, json) to `out`. Returns the row count. */
export async function writeTextRows(
  result: QueryRows,
  format: Exclude<Format, 'xlsx'>,
  out: Writable,
): Promise<number> {
  const write = writerOf(out);
  const { columns, rows } = result;
  let n = 0;
  if (format === 'csv') {
    await write(toCsvRecord(columns) + CSV_EOL);
    for await (const r of rows) {
      await write(toCsvRecord(r) + CSV_EOL);
      n += 1;
    }
    return n;
  }
  if (format === 'json') {
    await write('[');
    for await (const r of rows) {
      await write(
        `${n ? ',' : ''}\n  ${JSON.stringify(Object.fromEntries(columns.map((col, i) => [col, jsonValue(r[i])])))}`,
      );
      n += 1;
    }
    await write(n ? '\n]\n' : ']\n');
    return n;
  }
  const shown: string[][] = [];
  for await (const r of rows) {
    n += 1;
    if (shown.length < TABLE_ROWS) shown.push(r.map((v) => terminalText(safeText(plain(v), 'xlsx'))));
  }
  const heads = columns.map(terminalText);
  const widths = heads.map((col, i) => Math.min(60, Math.max(col.length, ...shown.map((r) => r[i]!.length))));
  const line = (cells: string[]) =>
    cells.map((v, i) => (v.length > widths[i]! ? `${v.slice(0, widths[i]! - 1)}…` : v.padEnd(widths[i]!))).join(' │ ');
  await write(`${line(heads)}\n${widths.map((w) => '─'.repeat(w)).join('─┼─')}\n`);
  const FOR_ALL = 'use --format csv --out FILE for all';
  for (const r of shown) await write(`${line(r)}\n`);
  await write(
    `(${n} row${n === 1 ? '' : 's'}${n > shown.length ? `, first ${shown.length} shown; ${FOR_ALL}` : ''})\n`,
  );
  return n;
}

/** The rows to `file` in `format`, whole or not at all (an existing file is replaced only by a finished one). */
export async function writeRowsFile(result: QueryRows, format: Format, file: string): Promise<number> {
  if (format === 'xlsx') {
    // exceljs only when a workbook is asked for: every other `recon sql` starts without it
    const { writeTableWorkbook } = await import('../report/table-workbook.js');
    return (await writeTableWorkbook(file, result.columns, result.rows)).rows;
  }
  return writeFileAtomically(file, (temp) => streamInto(temp, (out) => writeTextRows(result, format, out)), '--out');
}
