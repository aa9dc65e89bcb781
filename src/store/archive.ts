// The archive: a closed month older than --archive-after-months leaves the store. Its lines (payouts,
// refunds, adjustments, file lines: nearly all of a month's bytes) are written to immutable Parquet files
// beside the store (<db folder>/archive/<table>/month=YYYY-MM/<id>.parquet, recon's own folder like files/),
// then deleted from the store in one transaction with the rows that say so (schema 074). The disbursements
// stay, so the sync knows them and the bank matching still sees them; the checks that read lines leave them
// out and keep their findings as they were (sql/lifecycle/resolve.sql). The published snapshot's views read
// the archived files, so `recon sql` answers for an archived month as before.
// A month comes back whole (restoreMonth) when the service changes one of its disbursements or it is closed
// again; it leaves again on a later night. Its files are removed once no snapshot names them (snapshot-gc.ts).
import path from 'node:path';
import { rm } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { makeFolder } from '../files.js';
import { inTransaction } from './transaction.js';
import { sqlIdent } from './sql-text.js';
import { firstValue, hasTable } from './sql.js';
import { fingerprintOf } from './month-fingerprint.js';
import {
  columnsOf, copyToParquet, parquetColumns, readSelect, syncDirectory, syncFile, writeList,
} from './parquet-columns.js';
import { hashedColumns, tableSalt, type PartFile } from './snapshot-parts.js';

/** The tables an archived month leaves, and the key each keeps for the duplicate checks. */
const ARCHIVED: ReadonlyArray<{ table: string; kind: string | null; key: string | null }> = [
  { table: 'payouts', kind: 'payout', key: 'payment_id' },
  { table: 'refunds', kind: 'refund', key: 'refund_id' },
  { table: 'adjustments', kind: 'adjustment', key: 'reference' },
  { table: 'file_lines', kind: null, key: null },
];

/**
 * Months archived in one night at most: enabling the archive on a store of a year moves its old months out
 * over a few nights, each night's extra work bounded.
 */
const MONTHS_PER_NIGHT = 2;

const IDS = '__recon_archive_ids';

export interface ArchiveSettings {
  /** <db folder>/archive */
  archiveDir: string;
  /** Keep the current month and this many before it; 0: never archive. */
  afterMonths: number;
}

interface ArchiveResult {
  months: string[];
  disbursements: number;
  rows: number;
  bytes: number;
}

/** 'YYYY-MM' `n` months before `month`. */
export function monthsBefore(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) - n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The closed months the archive would take now (oldest first), at most MONTHS_PER_NIGHT. */
export async function monthsToArchive(c: DuckDBConnection, settings: ArchiveSettings, now: Date): Promise<string[]> {
  if (settings.afterMonths <= 0) return [];
  const current = String(await firstValue(c, 'SELECT month_of($1::TIMESTAMPTZ)', [now.toISOString()]));
  const rows = (await c.runAndReadAll(
    `SELECT DISTINCT month FROM closes
      WHERE month < $1 AND month NOT IN (SELECT month FROM archived_months)
        -- a disbursement not read whole is read again every night: its month stays
        AND month NOT IN (SELECT month_of(delivered_at) FROM disbursements
                          WHERE sync_status = 'incomplete' AND delivered_at IS NOT NULL)
      ORDER BY month LIMIT ${MONTHS_PER_NIGHT}`, [monthsBefore(current, settings.afterMonths)])).getRows();
  return rows.map((r) => String(r[0]));
}

/** Archives the closed months older than the setting (at most MONTHS_PER_NIGHT of them). */
export async function archiveMonths(
  c: DuckDBConnection, settings: ArchiveSettings, runId: string, now: Date,
): Promise<ArchiveResult> {
  const out: ArchiveResult = { months: [], disbursements: 0, rows: 0, bytes: 0 };
  for (const month of await monthsToArchive(c, settings, now)) {
    const one = await archiveMonth(c, settings.archiveDir, month, runId, now);
    out.months.push(month);
    out.disbursements += one.disbursements;
    out.rows += one.rows;
    out.bytes += one.bytes;
  }
  return out;
}

async function archiveMonth(c: DuckDBConnection, archiveDir: string, month: string, runId: string, now: Date)
  : Promise<Omit<ArchiveResult, 'months'>> {
  await c.run(`CREATE OR REPLACE TEMP TABLE ${IDS} AS SELECT disbursement_id FROM disbursements
    WHERE month_of(delivered_at) = $1
      AND disbursement_id NOT IN (SELECT disbursement_id FROM archived_disbursements)`, [month]);
  const id = `a${now.getTime().toString(36)}-${runId.replace(/[^a-z0-9]/gi, '').slice(-8).toLowerCase()}`;
  const written: Array<{ table: string; file: string; rows: number; bytes: number; fingerprint: string }> = [];
  try {
    for (const { table } of ARCHIVED) written.push(await writeArchiveFile(c, archiveDir, table, month, id));
    const disbursements = Number(await firstValue(c, `SELECT count(*) FROM ${IDS}`));
    await inTransaction(c, async () => {
      for (const { table, kind, key } of ARCHIVED) {
        if (kind && key) {
          await c.run(`INSERT INTO archived_line_keys
            SELECT '${kind}', ${sqlIdent(key)}, disbursement_id, line_no FROM ${sqlIdent(table)}
            WHERE ${sqlIdent(key)} IS NOT NULL AND disbursement_id IN (SELECT disbursement_id FROM ${IDS})`);
        }
        await c.run(`DELETE FROM ${sqlIdent(table)} WHERE disbursement_id IN (SELECT disbursement_id FROM ${IDS})`);
      }
      await c.run(`INSERT INTO archived_disbursements SELECT disbursement_id, $1 FROM ${IDS}`, [month]);
      for (const w of written) {
        await c.run('INSERT INTO archive_files VALUES ($1, $2, $3, $4, $5, $6)',
          [month, w.table, path.relative(archiveDir, w.file), w.rows, w.bytes, w.fingerprint]);
      }
      await c.run('INSERT INTO archived_months VALUES ($1, $2, $3::TIMESTAMPTZ, $4)',
        [month, disbursements, now.toISOString(), runId]);
    });
    const sum = (k: 'rows' | 'bytes') => written.reduce((s, w) => s + w[k], 0);
    return { disbursements, rows: sum('rows'), bytes: sum('bytes') };
  } catch (err) {
    // nothing left the store: the files written so far are no one's
    for (const w of written) await rm(w.file, { force: true }).catch(() => undefined);
    throw err;
  } finally {
    await c.run(`DROP TABLE IF EXISTS ${IDS}`);
  }
}

async function writeArchiveFile(c: DuckDBConnection, archiveDir: string, table: string, month: string, id: string) {
  const columns = await columnsOf(c, table);
  const salt = await tableSalt(c, table);
  const where = `t.disbursement_id IN (SELECT disbursement_id FROM ${IDS})`;
  const hashed = hashedColumns(table, columns.map((col) => col.name)).map((n) => `t.${sqlIdent(n)}`).join(', ');
  const [n, digest] = (await c.runAndReadAll(`SELECT count(*), CAST(sum(hash(${hashed})) AS VARCHAR)
    FROM ${sqlIdent(table)} AS t WHERE ${where}`)).getRows()[0]!;
  const file = path.join(archiveDir, table, `month=${month}`, `${id}.parquet`);
  await makeFolder(path.dirname(file));
  await copyToParquet(c, `SELECT ${writeList(columns)} FROM ${sqlIdent(table)} AS t WHERE ${where}`, file);
  const bytes = await syncFile(file);
  await syncDirectory(path.dirname(file));
  const rows = Number(n);
  return { table, file, rows, bytes, fingerprint: fingerprintOf(salt, table, month, rows, String(digest)) };
}

/**
 * Brings an archived month back into the store whole, in one transaction (nothing when it is not archived).
 * Its files stay until no snapshot names them.
 */
export async function restoreMonth(c: DuckDBConnection, archiveDir: string, month: string): Promise<boolean> {
  const files = (await c.runAndReadAll('SELECT object, file FROM archive_files WHERE month = $1', [month])).getRows()
    .map(([object, file]) => ({ table: String(object), file: path.join(archiveDir, String(file)) }));
  if (!(await isArchived(c, month))) return false;
  await inTransaction(c, async () => {
    for (const f of files) {
      const columns = await columnsOf(c, f.table);
      const list = columns.map((col) => sqlIdent(col.name)).join(', ');
      const select = readSelect(columns, [f.file], await parquetColumns(c, [f.file]));
      await c.run(`INSERT INTO ${sqlIdent(f.table)} (${list}) ${select}`);
    }
    await c.run(`DELETE FROM archived_line_keys
      WHERE disbursement_id IN (SELECT disbursement_id FROM archived_disbursements WHERE month = $1)`, [month]);
    await c.run('DELETE FROM archived_disbursements WHERE month = $1', [month]);
    await c.run('DELETE FROM archive_files WHERE month = $1', [month]);
    await c.run('DELETE FROM archived_months WHERE month = $1', [month]);
  });
  return true;
}

/** The archived months' files as the snapshot reads them (none when the store predates the archive). */
export async function archivedParts(c: DuckDBConnection, archiveDir: string): Promise<PartFile[]> {
  if (!(await hasTable(c, 'archive_files'))) return [];
  const rows = (await c.runAndReadAll(
    'SELECT object, month, file, rows, bytes, fingerprint FROM archive_files ORDER BY object, month')).getRows();
  return rows.map(([object, month, file, n, bytes, fingerprint]) => ({
    object: String(object), month: String(month), file: path.join(archiveDir, String(file)), rows: Number(n),
    bytes: Number(bytes), fingerprint: String(fingerprint), archived: true,
  }));
}

/** Whether `month` is archived (a close of it brings it back first). */
async function isArchived(c: DuckDBConnection, month: string): Promise<boolean> {
  return Number(await firstValue(c, 'SELECT count(*) FROM archived_months WHERE month = $1', [month])) > 0;
}

