// The accountants' side opens only the published snapshot, read-only; a missing one is a usage problem.
// `recon sql` opens it as a closed session: no file outside the snapshot can be read (so the live store
// can be neither changed nor locked) but the month files its views read (<published>.parts/ and the
// archive, both recon's own), no extension installed or loaded, no setting changed, one statement per call
// and only statements that read (statement.ts). DuckDB's own spill files go to a folder of the session's,
// capped in size, and removed when the session ends; the folder also leases the snapshot's generation, so
// a publish meanwhile keeps the month files this session reads (src/store/snapshot-gc.ts).
import { randomUUID } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeFolder } from '../files.js';
import { pidIsAlive } from '../ops/lock.js';
import { UsageError } from '../errors.js';
import { closeSession, openReadOnly, snapshotInfo, SnapshotMissingError } from '../store/publish.js';
import { leasesDirOf, writeLease } from '../store/snapshot-gc.js';
import { refuseLiveStore, type OwnFiles } from './own-files.js';

export type Snapshot = Awaited<ReturnType<typeof openReadOnly>>;

/** What one accountant's session may use. */
export interface SessionLimits {
  /** DuckDB's memory limit (--memory-mb); beyond it DuckDB spills to the session's temp folder. */
  memoryMb: number;
  /** The most the session's temp folder may hold (--max-temp-mb); DuckDB's own cap, and the query guard's. */
  maxTempMb: number;
  /** A query is interrupted after this many seconds (--query-timeout-s). */
  timeoutS: number;
}

/**
 * DuckDB settings of the accountants' session, fixed at open. External access is switched off once the
 * session knows which folders its snapshot reads (closeSession), then the configuration is locked.
 */
export function accountantSession(limits: SessionLimits, tempDirectory: string): Record<string, string> {
  return {
    memory_limit: `${limits.memoryMb}MB`,
    max_temp_directory_size: `${limits.maxTempMb}MB`,
    temp_directory: tempDirectory,
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    allow_community_extensions: 'false',
  };
}

/**
 * A temp folder of this session's own (concurrent sessions must not share DuckDB's): beside the snapshot,
 * else — a snapshot folder the accountant cannot write — in the system's temp folder. Folders of sessions
 * whose process is gone are removed first.
 */
export async function sessionTempDir(publishedPath: string, kind: 'sql' | 'export' = 'sql'): Promise<string> {
  const parent = leasesDirOf(publishedPath);
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    const pid = Number(/^[a-z]+-(\d+)-/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && !pidIsAlive(pid)) await rm(path.join(parent, name), { recursive: true, force: true }).catch(() => undefined);
  }
  const own = `${kind}-${process.pid}-${randomUUID().slice(0, 8)}`;
  for (const dir of [path.join(parent, own), path.join(tmpdir(), `recon-${own}`)]) {
    if (await makeFolder(dir).then(() => true, () => false)) return dir;
  }
  throw new UsageError(`cannot create a temporary folder beside ${publishedPath} or in ${tmpdir()}; check their permissions and free space`);
}

/**
 * Opens the snapshot (never a live store) with the session's settings, made only once the path is known
 * to be a snapshot (`settings` may create the session's temp folder), runs `fn`, and closes everything.
 * `closed`: the accountant's session (closeSession); an export reads with DuckDB's defaults.
 */
export async function withSnapshot<T>(
  own: OwnFiles,
  fn: (db: Snapshot) => Promise<T>,
  settings: () => Promise<Record<string, string>> = async () => ({}),
  closed = false,
): Promise<T> {
  await refuseLiveStore(own);
  const config = await settings();
  try {
    let db;
    try {
      db = await openReadOnly(own.published, config);
    } catch (err) {
      if (err instanceof SnapshotMissingError) throw new UsageError(err.message);
      throw err;
    }
    try {
      const info = await snapshotInfo(db.connection);
      const temp = config.temp_directory;
      if (info && temp && path.dirname(temp) === leasesDirOf(own.published)) await writeLease(temp, info.generation);
      if (closed) await closeSession(db.connection, info ? [info.partsDir, info.archiveDir] : []);
      return await fn(db);
    } finally {
      db.connection.closeSync();
      db.instance.closeSync();
    }
  } finally {
    if (config.temp_directory) await rm(config.temp_directory, { recursive: true, force: true }).catch(() => undefined);
  }
}
