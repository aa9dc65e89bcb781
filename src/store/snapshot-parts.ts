// The snapshot's large tables as Parquet files, one per table and month (<published>.parts/<table>/<month>/
// <generation>.parquet), so a publish writes only the months whose rows changed since the last one. Months
// are month-slices.ts's (a disbursement's rows by its delivery in the books' time zone, exceptions by their
// check run, bank entries by booking day). Archived months are not in the store: the snapshot reads their
// files in the archive folder as they are (src/store/archive.ts).
// A month's fingerprint is a sum of row hashes. The line tables (the bulk of the rows) are hashed on their
// key and run_id only: the sync's writer never updates a line in place, it deletes a disbursement's lines
// and writes them again with its own run_id, and a migration changes the salt (every month written again).
import path from 'node:path';
import { stat } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { makeFolder } from '../files.js';
import { MONTHLY_OBJECTS, prepareSlices, releaseSlices, type Slice } from './month-slices.js';
import { fingerprintOf, objectMonthDigests } from './month-fingerprint.js';
import { columnsOf, copyToParquet, syncDirectory, syncFile, writeList, type Column } from './parquet-columns.js';
import { sqlString } from './sql-text.js';
import { hasTable } from './sql.js';

/** The tables the snapshot holds as month files (the others are copied whole into its DuckDB file). */
export const PART_TABLES: readonly string[] = MONTHLY_OBJECTS
  .filter((o) => o.kind === 'table' && o.partitioning === 'month').map((o) => o.name);

/** Tables only the sync's writer fills, a disbursement's rows deleted and written again whole: key and run suffice. */
const KEYED_BY_RUN: Readonly<Record<string, readonly string[]>> = {
  payouts: ['disbursement_id', 'line_no', 'run_id'],
  refunds: ['disbursement_id', 'line_no', 'run_id'],
  adjustments: ['disbursement_id', 'line_no', 'run_id'],
  file_lines: ['disbursement_id', 'file_no', 'line_no', 'run_id'],
};

/** Columns the archive and the snapshot hash a table's rows on. */
export function hashedColumns(table: string, columns: readonly string[]): readonly string[] {
  return KEYED_BY_RUN[table] ?? columns;
}

/** One file of the snapshot: a month of a table, in the snapshot's parts or in the archive. */
export interface PartFile {
  object: string;
  month: string;
  /** Absolute path. */
  file: string;
  rows: number;
  bytes: number;
  fingerprint: string;
  archived: boolean;
}

export interface PartsRefresh {
  /** The tables held as month files (none in a database that is not a recon store). */
  tables: string[];
  parts: PartFile[];
  /** Files written by this publish, and their bytes. */
  written: number;
  writtenBytes: number;
}

const partKey = (p: Pick<PartFile, 'object' | 'month'>): string => `${p.object}\u0000${p.month}`;

/**
 * What salts a table's month fingerprints: its columns and types, the columns hashed and the schema version (a
 * migration may rewrite values without changing a column). The archive salts its files the same way, so a
 * month has one fingerprint whether it is in the store or archived.
 */
export async function tableSalt(c: DuckDBConnection, table: string): Promise<string> {
  const columns = await columnsOf(c, table);
  const version = String((await c.runAndReadAll('SELECT max(version) FROM schema_migrations')).getRows()[0]?.[0]);
  return JSON.stringify({ table, columns, hashed: hashedColumns(table, columns.map((col) => col.name)), version });
}

/**
 * Every month of every part table: reused from `previous` when its fingerprint is the same and its file is
 * still there, written to `partsDir` otherwise; archived months from the archive's own files.
 */
export async function refreshParts(
  c: DuckDBConnection, partsDir: string, generation: string,
  previous: readonly PartFile[], archived: readonly PartFile[],
): Promise<PartsRefresh> {
  const before = new Map(previous.filter((p) => !p.archived).map((p) => [partKey(p), p]));
  const out: PartsRefresh = { tables: [], parts: [...archived], written: 0, writtenBytes: 0 };
  // a database that is not a recon store (the publish tests' own) is copied whole
  if (!(await hasTable(c, 'disbursements'))) return out;
  const slices = await prepareSlices(c, MONTHLY_OBJECTS.filter((o) => PART_TABLES.includes(o.name)));
  out.tables = slices.map((s) => s.object.name);
  try {
    for (const slice of slices) {
      const name = slice.object.name;
      const columns = await columnsOf(c, name);
      const salt = await tableSalt(c, name);
      for (const m of await objectMonthDigests(c, slice, hashedColumns(name, slice.columns))) {
        const fingerprint = fingerprintOf(salt, name, m.month, m.rows, m.digest);
        const old = before.get(partKey({ object: name, month: m.month }));
        if (old && old.fingerprint === fingerprint && (await exists(old.file))) {
          out.parts.push(old);
          continue;
        }
        const file = path.join(partsDir, name, m.month, `${generation}.parquet`);
        const bytes = await writeMonth(c, slice, columns, m.month, file);
        out.parts.push({ object: name, month: m.month, file, rows: m.rows, bytes, fingerprint, archived: false });
        out.written += 1;
        out.writtenBytes += bytes;
      }
    }
  } finally {
    await releaseSlices(c, slices).catch(() => undefined);
  }
  return out;
}

async function writeMonth(
  c: DuckDBConnection, slice: Slice, columns: readonly Column[], month: string, file: string,
): Promise<number> {
  await makeFolder(path.dirname(file));
  const select = `SELECT ${writeList(columns)} FROM ${slice.relation} AS t WHERE t.__month = ${sqlString(month)}`;
  await copyToParquet(c, select, file);
  const bytes = await syncFile(file);
  await syncDirectory(path.dirname(file));
  return bytes;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(() => true, () => false);
}
