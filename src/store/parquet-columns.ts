// Parquet files recon writes (archived months, the snapshot's month files, `recon export --parquet`) hold every
// value exactly: Parquet has no 128-bit integer and DuckDB writes a HUGEINT as DOUBLE, so a sum (HUGEINT,
// schema 001) is written as DECIMAL(38,0) instead; money is BIGINT and stays INT64. Read back, each column is
// cast to the store's own type, so a view over the files answers with the types the table had.
import { open } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlIdent, sqlString } from './sql-text.js';

export interface Column {
  name: string;
  /** DuckDB's type as duckdb_columns() spells it: BIGINT, HUGEINT, DECIMAL(38,3), TIMESTAMP WITH TIME ZONE, JSON … */
  type: string;
}

/** How a type is written to Parquet: the same, but for the 128-bit integers. */
export function parquetType(type: string): string {
  return /^U?HUGEINT$/i.test(type) ? 'DECIMAL(38,0)' : type;
}

/** The columns of a table or view, in order (`catalog` defaults to the connection's own database). */
export async function columnsOf(c: DuckDBConnection, name: string, catalog?: string): Promise<Column[]> {
  const rows = (await c.runAndReadAll(
    `SELECT column_name, data_type FROM duckdb_columns()
      WHERE schema_name = 'main' AND table_name = $1 AND database_name = coalesce($2, current_database())
      ORDER BY column_index`, [name, catalog ?? null])).getRows();
  return rows.map(([n, t]) => ({ name: String(n), type: String(t) }));
}

/** The SELECT list that writes `columns` of `alias` exactly (HUGEINT as DECIMAL(38,0)). */
export function writeList(columns: readonly Column[], alias = 't'): string {
  return columns.map((col) => {
    const ref = `${alias}.${sqlIdent(col.name)}`;
    const type = parquetType(col.type);
    return type === col.type ? ref : `CAST(${ref} AS ${type}) AS ${sqlIdent(col.name)}`;
  }).join(', ');
}

/**
 * A SELECT over Parquet files giving `columns` with the store's types; a column none of the files has (added
 * by a later migration) is NULL. `present` are the column names the files hold.
 */
export function readSelect(columns: readonly Column[], files: readonly string[], present: ReadonlySet<string>): string {
  const list = columns.map((col) => (present.has(col.name)
    ? `CAST(${sqlIdent(col.name)} AS ${col.type}) AS ${sqlIdent(col.name)}`
    : `CAST(NULL AS ${col.type}) AS ${sqlIdent(col.name)}`)).join(', ');
  return `SELECT ${list} FROM read_parquet([${files.map(sqlString).join(', ')}], union_by_name = true)`;
}

/** The column names the Parquet files hold, together (their footers only). */
export async function parquetColumns(c: DuckDBConnection, files: readonly string[]): Promise<Set<string>> {
  if (files.length === 0) return new Set();
  const rows = (await c.runAndReadAll(
    `DESCRIBE SELECT * FROM read_parquet([${files.map(sqlString).join(', ')}], union_by_name = true)`)).getRows();
  return new Set(rows.map((r) => String(r[0])));
}

/** `COPY (select) TO file` as Parquet (zstd: a tenth of the bytes of the default on recon's lines). */
export async function copyToParquet(c: DuckDBConnection, select: string, file: string): Promise<void> {
  await c.run(`COPY (${select}) TO ${sqlString(file)} (FORMAT parquet, COMPRESSION zstd)`);
}

/** fsync a file recon wrote (before anything that names it is made visible); returns its size. */
export async function syncFile(path: string): Promise<number> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

/** Makes a rename or a new file's name durable. Some filesystems refuse fsync on a directory; that is not fatal. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => null);
  if (handle === null) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}
