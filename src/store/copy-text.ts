// A month slice as PostgreSQL's COPY text format, one line per row, made by DuckDB: values never pass
// through a JavaScript number (a bigint past 2^53, a HUGEINT sum, a major amount stay exact text), and
// Node only hands DuckDB's strings to the COPY stream. Each column is written for the type the
// PostgreSQL table declares:
//   bigint, integer, numeric   the exact decimal text; a `<x>_major` numeric is <x> in major units with its
//                              currency's decimals (format_amount: JPY 1234, EUR 12.34, KWD 1.234, MGA 1.2)
//   timestamptz                UTC with microseconds; date as YYYY-MM-DD; boolean t/f
//   jsonb                      the JSON text; "\u0000", which jsonb refuses, becomes "\ufffd"
//   text                       as stored; the NUL character, which PostgreSQL text cannot hold, becomes U+FFFD
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { sqlIdent } from './sql-text.js';

/** A column of the PostgreSQL table: its name and information_schema data_type. */
export interface TargetColumn {
  name: string;
  type: string;
}

const REPLACEMENT = '\uFFFD';

/** COPY text escapes: backslash, newline, carriage return, tab (PostgreSQL's COPY, "Text Format"). */
const escaped = (x: string) =>
  String.raw`replace(replace(replace(replace(replace(${x}, '\', '\\'), chr(10), '\n'), chr(13), '\r'), chr(9), '\t'), chr(0), '${REPLACEMENT}')`;

/**
 * jsonb refuses the escape \u0000; one preceded by an even run of backslashes is that escape (twice: matches overlap).
 */
const jsonSafe = (x: string) => {
  const once = (s: string) => String.raw`regexp_replace(${s}, '(^|[^\\])((?:\\\\)*)\\u0000', '\1\2\\ufffd', 'g')`;
  return once(once(x));
};

/**
 * The DuckDB expression giving `col`'s COPY text (NULL for a NULL value). `source` are the store
 * object's columns; `month`, for a partitioned table, is what its `month` column (the partition key) takes.
 */
function columnText(col: TargetColumn, source: ReadonlySet<string>, month: string | null): string {
  if (col.name === 'month' && month !== null) return month;
  if (!source.has(col.name)) throw new Error(`column ${col.name} is not in the store`);
  const v = `t.${sqlIdent(col.name)}`;
  switch (col.type) {
    case 'bigint':
    case 'integer':
    case 'smallint':
      return `CAST(${v} AS VARCHAR)`;
    case 'numeric': {
      const base = col.name.replace(/_major$/, '');
      if (base !== col.name && source.has(base) && source.has('currency')) {
        return `CASE WHEN t.${sqlIdent(base)} IS NULL OR t.currency IS NULL THEN NULL ELSE format_amount(t.${sqlIdent(base)}, t.currency) END`;
      }
      return `CAST(${v} AS VARCHAR)`;
    }
    case 'timestamp with time zone':
      return `strftime(CAST(${v} AS TIMESTAMPTZ) AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M:%S.%f') || '+00'`;
    case 'date':
      return `strftime(CAST(${v} AS DATE), '%Y-%m-%d')`;
    case 'boolean':
      return `CASE WHEN ${v} THEN 't' WHEN NOT ${v} THEN 'f' END`;
    case 'jsonb':
      return escaped(jsonSafe(`CAST(${v} AS VARCHAR)`));
    case 'text':
      return escaped(`CAST(${v} AS VARCHAR)`);
    default:
      throw new Error(`column ${col.name}: recon writes no ${col.type}`);
  }
}

/** One COPY text line per row: the columns tab-separated, \N for NULL, ending with a newline. */
export function copyLineExpression(
  columns: readonly TargetColumn[],
  source: ReadonlySet<string>,
  month: string | null,
): string {
  return `${columns.map((c) => `coalesce(${columnText(c, source, month)}, '\\N')`).join(' || chr(9) || ')} || chr(10)`;
}

/**
 * Streams the one-column result of `sql` (COPY text lines) to `write`, a DuckDB chunk (2048 rows) at a
 * time; `write` may wait (backpressure). Returns the number of rows.
 */
export async function streamLines(
  c: DuckDBConnection,
  sql: string,
  params: DuckDBValue[],
  write: (text: string) => Promise<void>,
): Promise<number> {
  const result = await c.stream(sql, params);
  let rows = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    rows += chunk.rowCount;
    await write((chunk.getColumnValues(0) as string[]).join(''));
  }
  return rows;
}
