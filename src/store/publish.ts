// The accountants' read-only snapshot. DuckDB allows one writer or many readers per file, never both,
// so the nightly writer copies its database into a new file and renames it over the published path.
// rename(2) is atomic on one filesystem: a reader that already has the old file open keeps reading the
// old inode, and the next connection opens the new file. Nobody ever sees a half-written snapshot.
import { sqlIdent, sqlString } from './sql-text.js';
import { TerminalError } from '../errors.js';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { open, readdir, rename as fsRename, rm, stat } from 'node:fs/promises';
import { makeFolder } from '../files.js';
import { basename, dirname, join } from 'node:path';
import { pidIsAlive } from '../ops/lock.js';

export interface PublishOptions {
  /** The writer's own open connection; the snapshot is its current database. */
  sourceConnection: DuckDBConnection;
  publishedPath: string;
  /** The run publishing: recorded 'publishing' in the store until the swap, 'succeeded' in the copy. */
  runId?: string;
  /** For tests: the step that swaps the new file in (default fs.rename). */
  rename?: (from: string, to: string) => Promise<void>;
  now?: () => Date;
}

export interface PublishedSnapshot {
  path: string;
  bytes: number;
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

/** Copies the writer's database to a new file and atomically swaps it in at publishedPath. */
export async function publishSnapshot(opts: PublishOptions): Promise<PublishedSnapshot> {
  const { sourceConnection: db, publishedPath } = opts;
  const now = opts.now ?? (() => new Date());
  const tmpPath = `${publishedPath}.tmp-${process.pid}-${now().getTime()}`;
  await removeLeftovers(publishedPath, tmpPath);

  let step: PublishError['step'] = 'copy';
  try {
    await db.run('CHECKPOINT'); // the WAL into the store first: the copy reads the store's current state
    await makeFolder(dirname(publishedPath));
    await copyDatabase(db, tmpPath, now, opts.runId);
    step = 'sync';
    const bytes = await syncFile(tmpPath);
    step = 'swap';
    await (opts.rename ?? fsRename)(tmpPath, publishedPath);
    await syncDirectory(dirname(publishedPath));
    return { path: publishedPath, bytes };
  } catch (error) {
    await removeTemp(tmpPath);
    throw new PublishError(publishedPath, step, error);
  }
}

async function copyDatabase(db: DuckDBConnection, tmpPath: string, now: () => Date, runId: string | undefined): Promise<void> {
  const source = await currentDatabase(db);
  const alias = `recon_snapshot_${process.pid}_${now().getTime()}`;
  await db.run(`ATTACH ${sqlString(tmpPath)} AS ${alias}`);
  try {
    // Copies schemas, tables, views, sequences and macros (test/ops/publish.test.ts checks views).
    await db.run(`COPY FROM DATABASE ${sqlIdent(source)} TO ${alias}`);
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

async function currentDatabase(db: DuckDBConnection): Promise<string> {
  const rows = (await db.runAndReadAll('SELECT current_database()')).getRows();
  const name = rows[0]?.[0];
  if (typeof name !== 'string') throw new Error('the source connection has no current database');
  return name;
}

/** fsync before the rename: otherwise a crash could leave a renamed but empty file. */
async function syncFile(path: string): Promise<number> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

/** Makes the rename itself durable. Some filesystems refuse fsync on a directory; that is not fatal. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => null);
  if (handle === null) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
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
export async function openReadOnly(path: string, settings: Record<string, string> = {}): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
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
