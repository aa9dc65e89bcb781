// Where a store keeps what belongs to it, derived once from --db: every part of recon that reads or writes
// beside the store (the run lock, downloaded files, logs, the published snapshot, the demo's statements
// and outbox) takes its path from here, so a folder is named in one place.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { lockPathOf } from '../ops/lock.js';

export interface StoreLayout {
  /** The store file as the user named it (--db). */
  db: string;
  /** The store's folder, absolute. */
  dir: string;
  /** The run lock beside the store (exit 3 while another run holds it). */
  lock: string;
  /** Downloaded settlement files, by content (files/<ab>/<sha256>). */
  files: string;
  /** Archived months as Parquet (archive/<table>/month=YYYY-MM/…, src/store/archive.ts). */
  archive: string;
  /** The JSON log on a terminal (logs/recon.log), when no --log-file is given. */
  log: string;
  /** The accountants' read-only snapshot (--published, else published/recon.duckdb beside the store). */
  published: string;
  /** Statements the demo's bank writes (recon demo only). */
  statements: string;
  /** Mail the demo would send, as .eml files (recon demo only). */
  outbox: string;
}

/**
 * The layout of the store at `db`. Its folder is where the store file really is (a --db given as a symbolic
 * link finds the same files/, logs/ and lock as the store's own path), so two spellings of one store share
 * one lock and one set of files.
 */
export function storeLayout(db: string, published?: string | null): StoreLayout {
  const real = realPath(db);
  const dir = path.dirname(real);
  return {
    db,
    dir,
    lock: lockPathOf(real),
    files: path.join(dir, 'files'),
    archive: path.join(dir, 'archive'),
    log: path.join(dir, 'logs', 'recon.log'),
    published: published ?? path.join(path.dirname(db), 'published', 'recon.duckdb'),
    statements: path.join(dir, 'statements'),
    outbox: path.join(dir, 'outbox'),
  };
}

/** `p` with symbolic links resolved as far as it exists (a store not yet created: its folder's real path). */
function realPath(p: string): string {
  const abs = path.resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    const parent = path.dirname(abs);
    return parent === abs ? abs : path.join(realPath(parent), path.basename(abs));
  }
}
