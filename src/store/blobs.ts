// The downloaded files live beside the store under files/<ab>/<sha256>. The store says which blobs a
// disbursement's files should have; if the folder lost them, the disbursement is read again — unless
// `recon prune` removed them under the retention (pruned_blobs, src/store/retention.ts).
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from './sql-text.js';

/** Disbursements with a downloaded file whose blob is no longer under `filesDir`. */
export async function disbursementsMissingBlobs(c: DuckDBConnection, filesDir: string): Promise<Set<string>> {
  const rows = (await c.runAndReadAll(
    `WITH present AS (SELECT parse_filename(file) AS sha256 FROM glob(${sqlString(`${filesDir}/*/*`)}))
     SELECT DISTINCT df.disbursement_id FROM disbursement_files AS df
      WHERE df.sha256 IS NOT NULL AND df.sha256 NOT IN (SELECT sha256 FROM present)
        AND df.sha256 NOT IN (SELECT sha256 FROM pruned_blobs)`,
  )).getRows();
  return new Set(rows.map((r) => String(r[0])));
}

interface BlobFile {
  path: string;
  /** The file's name: the sha256 of its content. */
  name: string;
  bytes: number;
  modifiedMs: number;
}

const BLOB_DIR = /^[0-9a-f]{2}$/;
const BLOB_NAME = /^[0-9a-f]{64}$/;

/**
 * Every blob under files/<ab>/<sha256> (none when the folder does not exist). Only recon's own naming is
 * read, and a symbolic link (a folder or a file) is never followed: what it points to is not the store's.
 */
export async function listBlobs(filesDir: string): Promise<BlobFile[]> {
  const out: BlobFile[] = [];
  for (const dir of await readdir(filesDir, { withFileTypes: true }).catch(() => [])) {
    if (!dir.isDirectory() || !BLOB_DIR.test(dir.name)) continue;
    const sub = path.join(filesDir, dir.name);
    for (const entry of await readdir(sub, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isFile() || !BLOB_NAME.test(entry.name) || !entry.name.startsWith(dir.name)) continue;
      const st = await lstat(path.join(sub, entry.name)).catch(() => null);
      if (st?.isFile())
        out.push({ path: path.join(sub, entry.name), name: entry.name, bytes: st.size, modifiedMs: st.mtimeMs });
    }
  }
  return out;
}
