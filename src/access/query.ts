// Accountants' ad-hoc SQL on the published read-only snapshot, streamed out as a table, CSV, JSON or xlsx.
// Text from the service is never a live formula: CSV fields are neutralised, xlsx cells are strings.
import type { DuckDBConnection } from '@duckdb/node-api';
import { toCsvRecord, CSV_EOL } from '../report/csv.js';
import { writeTableWorkbook } from '../report/table-workbook.js';
import { safeText, terminalText } from '../report/safe-text.js';

export type Format = 'table' | 'csv' | 'json' | 'xlsx';

function plain(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return String(value);
}

function jsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonValue(v)]));
  return value;
}

/** Run `sql` and write its rows to `out` (a stream) or, for xlsx, to the file `outFile`. Returns the row count. */
export async function runQuery(
  c: DuckDBConnection,
  sql: string,
  format: Format,
  out: NodeJS.WritableStream,
  outFile?: string,
): Promise<number> {
  const result = await c.stream(sql);
  const columns = result.deduplicatedColumnNames();
  const rows = async function* () {
    for await (const chunk of result.yieldRowsJs()) yield* chunk as unknown[][];
  };
  if (format === 'xlsx') {
    if (!outFile) throw new Error('--format xlsx needs --out FILE.xlsx');
    return (await writeTableWorkbook(outFile, columns, rows())).rows;
  }
  let n = 0;
  if (format === 'csv') {
    out.write(toCsvRecord(columns) + CSV_EOL);
    for await (const r of rows()) {
      out.write(toCsvRecord(r) + CSV_EOL);
      n += 1;
    }
    return n;
  }
  if (format === 'json') {
    out.write('[');
    for await (const r of rows()) {
      out.write(`${n ? ',' : ''}\n  ${JSON.stringify(Object.fromEntries(columns.map((col, i) => [col, jsonValue(r[i])])))}`);
      n += 1;
    }
    out.write(n ? '\n]\n' : ']\n');
    return n;
  }
  // table: aligned columns over the first 10 000 rows (a terminal is no place for more)
  const shown: string[][] = [];
  for await (const r of rows()) {
    n += 1;
    if (shown.length < 10_000) shown.push(r.map((v) => terminalText(safeText(plain(v), 'xlsx'))));
  }
  const heads = columns.map(terminalText);
  const widths = heads.map((col, i) => Math.min(60, Math.max(col.length, ...shown.map((r) => r[i]!.length))));
  const line = (cells: string[]) => cells.map((v, i) => (v.length > widths[i]! ? `${v.slice(0, widths[i]! - 1)}…` : v.padEnd(widths[i]!))).join(' │ ');
  out.write(`${line(heads)}\n${widths.map((w) => '─'.repeat(w)).join('─┼─')}\n`);
  for (const r of shown) out.write(`${line(r)}\n`);
  out.write(`(${n} row${n === 1 ? '' : 's'}${n > shown.length ? `, first ${shown.length} shown; use --format csv --out FILE for all` : ''})\n`);
  return n;
}

