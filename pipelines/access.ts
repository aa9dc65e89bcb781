// The accountants' side: one read-only query on the published snapshot, or every table and view of it as
// Parquet. Neither takes the run lock; neither can reach recon's own files.
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { Config } from './config.js';
import { accountantSession, sessionTempDir, withSnapshot } from '../src/access/snapshot.js';
import { runGuardedQuery } from '../src/access/query.js';
import { writeRowsFile, writeTextRows, type Format } from '../src/access/output.js';
import { refuseOwnFile } from '../src/access/own-files.js';
import { exportParquet, type ParquetExport } from '../src/store/export.js';
import { requireWritableFolder } from '../src/files.js';
import { accessSettings } from './settings.js';

/** Runs `sql` and writes its rows to `outFile` (whole or not at all) or, as text, to `stdout`; returns the row count. */
export async function runAccountantQuery(
  config: Config, sql: string, format: Format, outFile: string | undefined, stdout: Writable,
): Promise<number> {
  const { layout: own, limits } = accessSettings(config);
  if (outFile) {
    await refuseOwnFile(outFile, own, '--out');
    await requireWritableFolder(path.dirname(path.resolve(outFile)), '--out');
  }
  return withSnapshot(own, (db) => runGuardedQuery(db, sql, limits, (result) =>
    (outFile ? writeRowsFile(result, format, outFile) : writeTextRows(result, format as Exclude<Format, 'xlsx'>, stdout))),
  async () => accountantSession(limits, await sessionTempDir(own.published)), true);
}

/**
 * Every table of the snapshot and its finance views as Parquet under `dir`: the months that changed since the
 * export before, a manifest naming the export's files written last (src/store/export.ts).
 */
export async function runExport(config: Config, dir: string): Promise<ParquetExport> {
  const { layout: own, limits } = accessSettings(config);
  await refuseOwnFile(dir, own, '--parquet');
  await requireWritableFolder(dir, '--parquet');
  // its temp folder beside the snapshot leases the snapshot's month files while it reads them
  const settings = async () => ({
    memory_limit: `${limits.memoryMb}MB`, temp_directory: await sessionTempDir(own.published, 'export'),
  });
  return withSnapshot(own, (db) => exportParquet(db.connection, dir), settings);
}
