// The accountants' read-only snapshot. DuckDB allows one writer or many readers per file, never both, so the
// nightly writer builds a new file and renames it over the published path. rename(2) is atomic on one
// filesystem: a reader that already has the old file open keeps reading the old inode, and the next connection
// opens the new file. Nobody ever sees a half-written snapshot.
// The file is small: the large tables (month-slices.ts) are views over Parquet month files beside it
// (snapshot-parts.ts), written only for the months whose rows changed, and over the archive's files for the
// archived months; file names are never reused, and a generation's files stay while a reader may use them
// (snapshot-gc.ts). Everything else is copied whole.
import { sqlIdent, sqlString } from './sql-text.js';
import { firstValue, hasTable } from './sql.js';
import { TerminalError } from '../errors.js';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readdir, rename as fsRename, rm, stat } from 'node:fs/promises';
import { makeFolder } from '../files.js';
import { basename, dirname, join, sep } from 'node:path';
import { pidIsAlive } from '../ops/lock.js';
import { storeLayout } from './layout.js';
import { appendRows } from './append.js';
import { archivedParts } from './archive.js';
import { columnsOf, parquetColumns, readSelect, syncDirectory, syncFile } from './parquet-columns.js';
import { refreshParts, type PartFile, type PartsRefresh } from './snapshot-parts.js';
import { collectGarbage, newGeneration, partsDirOf, writeGeneration } from './snapshot-gc.js';

/** Archived lines' bookkeeping for the live store's checks: empty in the snapshot, whose views read every row. */
const LIVE_ONLY = new Set(['archived_disbursements', 'archived_line_keys']);

interface PublishOptions {
  /** The writer's own open connection; the snapshot is its current database. */
  sourceConnection: DuckDBConnection;
  publishedPath: string;
  /** The run publishing: recorded 'publishing' in the store until the swap, 'succeeded' in the copy. */
  runId?: string;
  /** The store's archive folder (default: archive/ beside the store file). */
  archiveDir?: string;
  /** For tests: the step that swaps the new file in (default fs.rename). */
  rename?: (from: string, to: string) => Promise<void>;
  now?: () => Date;
}

interface PublishedSnapshot {
  path: string;
  /** The snapshot's DuckDB file. */
  bytes: number;
  generation: string;
  /** Month files this publish wrote (the months that changed), and their bytes. */
  filesWritten: number;
  bytesWritten: number;
  /** Month files of earlier generations (and archive files) no reader needs any more, removed. */
  filesRemoved: number;
}

export class PublishError extends TerminalError {
  override readonly name = 'PublishError';
  constructor(readonly publishedPath: string, readonly step: 'copy' | 'sync' | 'swap', cause: unknown) {
    super(
      `could not publish the snapshot to ${publishedPath} (${step} failed: ${describe(cause)}); `
        + 'the previous snapshot is unchanged — check free space and write permission on its folder',
      { cause },
    );
  }
}

export class SnapshotMissingError extends TerminalError {
  override readonly name = 'SnapshotMissingError';
  constructor(readonly path: string) {
    super(`no published snapshot yet at ${path}; run \`recon run\` first`);
  }
}

/** Writes the changed months' files and a new DuckDB file of the rest, and atomically swaps it in at publishedPath. */
export async function publishSnapshot(opts: PublishOptions): Promise<PublishedSnapshot> {
  const { sourceConnection: db, publishedPath } = opts;
  const now = opts.now ?? (() => new Date());
  const tmpPath = `${publishedPath}.tmp-${process.pid}-${now().getTime()}`;
  const generation = newGeneration(now());
  const partsDir = partsDirOf(publishedPath);
  await removeLeftovers(publishedPath, tmpPath);

  let step: PublishError['step'] = 'copy';
  try {
    await db.run('CHECKPOINT'); // the WAL into the store first: the copy reads the store's current state
    await makeFolder(dirname(publishedPath));
    const archiveDir = opts.archiveDir ?? storeLayout(await databasePath(db)).archive;
    const before = await publishedParts(db, publishedPath);
    const archived = await archivedParts(db, archiveDir);
    const refreshed = await refreshParts(db, partsDir, generation, before.parts, archived);
    await copyDatabase(db, tmpPath, opts.runId, refreshed, { generation, partsDir, archiveDir, publishedAt: now() });
    step = 'sync';
    const bytes = await syncFile(tmpPath);
    await writeGeneration(partsDir, generation, refreshed.parts.map((p) => p.file));
    step = 'swap';
    await (opts.rename ?? fsRename)(tmpPath, publishedPath);
    await syncDirectory(dirname(publishedPath));
    // what no reader can need any more; a failure here costs disk, never the snapshot just published
    const keep = new Set([generation, ...(before.generation ? [before.generation] : [])]);
    const archiveInUse = new Set(archived.map((a) => a.file));
    const filesRemoved = await collectGarbage({ published: publishedPath, archiveDir, keep, archiveInUse })
      .catch(() => 0);
    const { written: filesWritten, writtenBytes: bytesWritten } = refreshed;
    return { path: publishedPath, bytes, generation, filesWritten, bytesWritten, filesRemoved };
  } catch (error) {
    await removeTemp(tmpPath);
    throw new PublishError(publishedPath, step, error);
  }
}

interface SnapshotInfo {
  generation: string;
  partsDir: string;
  archiveDir: string;
  publishedAt: Date;
}

async function copyDatabase(
  db: DuckDBConnection, tmpPath: string, runId: string | undefined,
  { tables: asParts, parts }: PartsRefresh, info: SnapshotInfo,
): Promise<void> {
  const source = await currentDatabase(db);
  const alias = `recon_snapshot_${process.pid}_${info.publishedAt.getTime()}`;
  await db.run(`ATTACH ${sqlString(tmpPath)} AS ${alias}`);
  try {
    // the schema (tables empty, views, macros, sequences) first; views bind by name when read, so a large
    // table can become a view of the same name over its month files
    await db.run(`COPY FROM DATABASE ${sqlIdent(source)} TO ${alias} (SCHEMA)`);
    for (const { schema, table } of await baseTables(db, source)) {
      const target = `${alias}.${sqlIdent(schema)}.${sqlIdent(table)}`;
      const main = schema === 'main';
      if (main && asParts.includes(table)) {
        const files = parts.filter((p) => p.object === table).map((p) => p.file);
        if (files.length === 0) continue; // no rows: the empty table stays
        const select = readSelect(await columnsOf(db, table), files, await parquetColumns(db, files));
        await db.run(`DROP TABLE ${target}`);
        await db.run(`CREATE VIEW ${target} AS ${select}`);
      } else if (!(main && LIVE_ONLY.has(table))) {
        await db.run(`INSERT INTO ${target} SELECT * FROM ${sqlIdent(source)}.${sqlIdent(schema)}.${sqlIdent(table)}`);
      }
    }
    await describeSnapshot(db, alias, parts, info);
    // The run publishing this copy is recorded 'publishing' in the store until the swap is done; in the
    // copy it has succeeded: the copy is only ever seen if the swap happens.
    if (runId) await db.run(`UPDATE ${alias}.runs SET status = 'succeeded' WHERE run_id = $1`, [runId]);
    await db.run(`CHECKPOINT ${alias}`);
  } finally {
    await db.run(`DETACH DATABASE IF EXISTS ${alias}`);
  }
  // After DETACH everything must be in the main file; a WAL beside it would not travel with the rename.
  if (await exists(`${tmpPath}.wal`)) throw new Error(`DuckDB left a WAL beside ${tmpPath} after DETACH`);
}

/**
 * snapshot_files: every month file the snapshot's views read (accountants see which months are archived);
 * snapshot_info: its generation and the two folders a closed session is allowed to read.
 */
async function describeSnapshot(
  db: DuckDBConnection, alias: string, parts: readonly PartFile[], info: SnapshotInfo,
): Promise<void> {
  await db.run(`CREATE TABLE ${alias}.main.snapshot_files (object VARCHAR NOT NULL, month VARCHAR NOT NULL,
    file VARCHAR NOT NULL, rows BIGINT NOT NULL, bytes BIGINT NOT NULL, fingerprint VARCHAR NOT NULL,
    archived BOOLEAN NOT NULL)`);
  await db.run(`CREATE TEMP TABLE __recon_snapshot_files (object VARCHAR, month VARCHAR, file VARCHAR, rows BIGINT,
    bytes BIGINT, fingerprint VARCHAR, archived VARCHAR)`);
  try {
    const kinds = ['varchar', 'varchar', 'varchar', 'bigint', 'bigint', 'varchar', 'varchar'] as const;
    await appendRows(db, '__recon_snapshot_files', kinds,
      parts.map((p) => [p.object, p.month, p.file, BigInt(p.rows), BigInt(p.bytes), p.fingerprint,
        String(p.archived)]));
    await db.run(`INSERT INTO ${alias}.main.snapshot_files
      SELECT object, month, file, rows, bytes, fingerprint, archived = 'true' FROM __recon_snapshot_files
      ORDER BY object, month`);
  } finally {
    await db.run('DROP TABLE IF EXISTS __recon_snapshot_files');
  }
  await db.run(`CREATE TABLE ${alias}.main.snapshot_info AS SELECT $1::VARCHAR AS generation,
    $2::TIMESTAMPTZ AS published_at, $3::VARCHAR AS parts_dir, $4::VARCHAR AS archive_dir`,
  [info.generation, info.publishedAt.toISOString(), info.partsDir, info.archiveDir]);
}

/** The month files and generation of the snapshot published now (none when it is missing or predates month files). */
async function publishedParts(
  db: DuckDBConnection, publishedPath: string,
): Promise<{ generation: string | null; parts: PartFile[] }> {
  if (!(await exists(publishedPath))) return { generation: null, parts: [] };
  const alias = `recon_published_${process.pid}`;
  try {
    await db.run(`ATTACH ${sqlString(publishedPath)} AS ${alias} (READ_ONLY)`);
  } catch {
    return { generation: null, parts: [] }; // unreadable: every month is written again
  }
  try {
    const has = (await db.runAndReadAll(`SELECT count(*) FROM duckdb_tables() WHERE database_name = $1
      AND table_name IN ('snapshot_files', 'snapshot_info')`, [alias])).getRows()[0]?.[0];
    if (Number(has) !== 2) return { generation: null, parts: [] };
    const generation = (await db.runAndReadAll(`SELECT generation FROM ${alias}.main.snapshot_info`)).getRows()[0]?.[0];
    const rows = (await db.runAndReadAll(
      `SELECT object, month, file, rows, bytes, fingerprint, archived FROM ${alias}.main.snapshot_files`)).getRows();
    return {
      generation: generation === undefined || generation === null ? null : String(generation),
      parts: rows.map(([object, month, file, n, bytes, fingerprint, archived]) => ({
        object: String(object), month: String(month), file: String(file), rows: Number(n), bytes: Number(bytes),
        fingerprint: String(fingerprint), archived: archived === true,
      })),
    };
  } finally {
    await db.run(`DETACH DATABASE IF EXISTS ${alias}`);
  }
}

async function baseTables(db: DuckDBConnection, catalog: string): Promise<Array<{ schema: string; table: string }>> {
  const rows = (await db.runAndReadAll(`SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = $1
    AND NOT temporary ORDER BY schema_name, table_name`, [catalog])).getRows();
  return rows.map((r) => ({ schema: String(r[0]), table: String(r[1]) }));
}

/** The store's file, as DuckDB opened it. */
async function databasePath(db: DuckDBConnection): Promise<string> {
  const p = await firstValue(db, 'SELECT path FROM duckdb_databases() WHERE database_name = current_database()');
  if (typeof p !== 'string' || p === '') throw new Error('an in-memory store cannot be published');
  return p;
}

async function currentDatabase(db: DuckDBConnection): Promise<string> {
  const rows = (await db.runAndReadAll('SELECT current_database()')).getRows();
  const name = rows[0]?.[0];
  if (typeof name !== 'string') throw new Error('the source connection has no current database');
  return name;
}



/** Temp files of earlier attempts that died (their pid is gone), or earlier attempts of this process. */
async function removeLeftovers(publishedPath: string, currentTmp: string): Promise<void> {
  const dir = dirname(publishedPath);
  const prefix = `${basename(publishedPath)}.tmp-`;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || join(dir, name) === currentTmp) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && pidIsAlive(pid)) continue;
    await rm(join(dir, name), { recursive: true, force: true });
  }
}

async function removeTemp(tmpPath: string): Promise<void> {
  await Promise.all([tmpPath, `${tmpPath}.wal`].map((p) => rm(p, { force: true }).catch(() => undefined)));
}

/** Opens a published snapshot for reading; many readers may do this at once. */
export async function openReadOnly(
  path: string,
  settings: Record<string, string> = {},
): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  if (!(await exists(path))) throw new SnapshotMissingError(path);
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path, { ...settings, access_mode: 'READ_ONLY' });
  } catch (error) {
    if (/database does not exist/i.test(describe(error))) throw new SnapshotMissingError(path);
    throw error;
  }
  return { instance, connection: await instance.connect() };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What a published snapshot says of itself (null for one published before month files). */
export async function snapshotInfo(
  c: DuckDBConnection,
): Promise<{ generation: string; partsDir: string; archiveDir: string } | null> {
  if (!(await hasTable(c, 'snapshot_info'))) return null;
  const row = (await c.runAndReadAll('SELECT generation, parts_dir, archive_dir FROM snapshot_info')).getRows()[0];
  return row ? { generation: String(row[0]), partsDir: String(row[1]), archiveDir: String(row[2]) } : null;
}

/**
 * Closes an accountant's session on a snapshot: only `readable` (the snapshot's month files, the archive) and
 * the session's temp folder may be read, external access is off, and no SET can undo any of it. Order
 * matters: the folders are allowed before external access goes, and lock_configuration comes last.
 */
export async function closeSession(c: DuckDBConnection, readable: readonly string[]): Promise<void> {
  const folders = readable.map((d) => sqlString(d.endsWith(sep) ? d : d + sep));
  if (folders.length > 0) await c.run(`SET allowed_directories = [${folders.join(', ')}]`);
  await c.run('SET enable_external_access = false');
  await c.run('SET lock_configuration = true');
}
