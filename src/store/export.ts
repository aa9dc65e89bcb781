// Every table and view as Parquet, partitioned by month of the disbursement's delivered_at in the books' time
// zone (month_of: --books-tz of the last close, the months the close and monthly_summary count), so a warehouse
// engine (Spark, Trino, Athena, DuckDB elsewhere) reads the same months: <dir>/<name>/month=YYYY-MM/*.parquet.
// Tables with no link to a disbursement are written whole (<dir>/<name>/data.parquet).
// Everything is written into a hidden folder inside <dir> first; only when every object is written are
// the objects' folders swapped in, so a failed export leaves the previous one as it was.
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { exists, makeFolder, WriteError } from '../files.js';
import { ReconError } from '../errors.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlIdent, sqlString } from './sql-text.js';

const MONTH_OF = (col: string) => `month_of(${col})`;

export interface ExportedObject {
  name: string;
  kind: 'table' | 'view';
  partitioned: boolean;
  rows: number;
}

export async function exportParquet(c: DuckDBConnection, dir: string): Promise<ExportedObject[]> {
  const staging = path.join(dir, `.recon-export-${process.pid}-${randomUUID().slice(0, 8)}`);
  try {
    await makeFolder(staging);
    const done = await writeObjects(c, staging);
    for (const o of done) await swapIn(path.join(staging, o.name), path.join(dir, o.name), staging);
    return done;
  } catch (err) {
    throw err instanceof ReconError ? err : new WriteError(dir, '--parquet', err);
  } finally {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The new folder replaces the old one by two renames (the old one goes once the new one is there). */
async function swapIn(fresh: string, target: string, staging: string): Promise<void> {
  const old = path.join(staging, `.old-${path.basename(target)}`);
  if (await exists(target)) await rename(target, old);
  await rename(fresh, target);
}

async function writeObjects(c: DuckDBConnection, dir: string): Promise<ExportedObject[]> {
  const objects = (await c.runAndReadAll(
    `SELECT table_name, table_type FROM information_schema.tables
      WHERE table_schema = 'main' AND table_catalog = current_database() AND table_name NOT LIKE '\\_%' ESCAPE '\\'
      ORDER BY table_name`,
  )).getRowsJS();
  const done: ExportedObject[] = [];
  for (const [rawName, type] of objects) {
    const name = String(rawName);
    const columns = (await c.runAndReadAll(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'main' AND table_name = $1`, [name])).getRowsJS().map((r) => String(r[0]));
    let select: string;
    let partitioned = true;
    if (columns.includes('month')) select = `SELECT * FROM ${sqlIdent(name)}`;
    else if (columns.includes('delivered_at')) select = `SELECT *, ${MONTH_OF('delivered_at')} AS month FROM ${sqlIdent(name)}`;
    else if (columns.includes('disbursement_id') && name !== 'disbursements') {
      select = `SELECT t.*, coalesce(${MONTH_OF('d.delivered_at')}, 'none') AS month FROM ${sqlIdent(name)} t
                LEFT JOIN disbursements d ON d.disbursement_id = t.disbursement_id`;
    } else {
      select = `SELECT * FROM ${sqlIdent(name)}`;
      partitioned = false;
    }
    const target = path.join(dir, name);
    await makeFolder(target);
    const to = partitioned ? sqlString(target) : sqlString(path.join(target, 'data.parquet'));
    const options = partitioned ? '(FORMAT parquet, PARTITION_BY (month), OVERWRITE_OR_IGNORE true)' : '(FORMAT parquet)';
    await c.run(`COPY (${select}) TO ${to} ${options}`);
    const rows = Number((await c.runAndReadAll(`SELECT count(*) FROM ${sqlIdent(name)}`)).getRowsJS()[0]?.[0] ?? 0);
    done.push({ name, kind: String(type) === 'VIEW' ? 'view' : 'table', partitioned, rows });
  }
  return done;
}
