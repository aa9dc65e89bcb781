// recon's own files — the store with its WAL, lock and temp files, the downloaded files, the logs, the
// published snapshot — are out of reach of what an accountant names: an --out, an export folder, or a
// --published that is really the live store. Paths are compared as the file system resolves them
// (symbolic links followed, `..` and `.` gone), so no spelling of a path gets around the check.
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { exists } from '../files.js';
import type { StoreLayout } from '../store/layout.js';

/** The live store (--db), the published snapshot (--published), the downloaded files and the logs beside the store. */
export type OwnFiles = Pick<StoreLayout, 'db' | 'published' | 'files' | 'log'>;

const MAX_LINKS = 40;

/** `p` as the file system resolves it, also when it (or its last parts) does not exist yet. */
export async function resolvePath(p: string, hops = 0): Promise<string> {
  const abs = path.resolve(p);
  const real = await realpath(abs).catch(() => null);
  if (real) return real;
  const info = await lstat(abs).catch(() => null);
  if (info?.isSymbolicLink() && hops < MAX_LINKS) {
    // a link to a file that does not exist yet: writing through it would create its target
    return resolvePath(path.resolve(path.dirname(abs), await readlink(abs)), hops + 1);
  }
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  return path.join(await resolvePath(parent, hops), path.basename(abs));
}

const within = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);

/** What of recon's own `p` is (in words), or null when it is none of them. */
export async function ownFileAt(p: string, own: OwnFiles): Promise<string | null> {
  const target = await resolvePath(p);
  const store = await resolvePath(own.db);
  const snapshot = await resolvePath(own.published);
  const sameFamily = (file: string) => path.dirname(target) === path.dirname(file)
    && (path.basename(target) === path.basename(file) || path.basename(target).startsWith(`${path.basename(file)}.`));
  // under the store's or the snapshot's own temp folder (DuckDB spills there), or the file itself, its WAL, lock, notes
  const inFamily = (file: string) => sameFamily(file) || [...pathPrefixes(target)].some((d) => sameFamilyDir(d, file));
  if (inFamily(store)) return `the live store ${own.db} (or its WAL, lock or temp files)`;
  if (within(target, await resolvePath(own.files))) return `recon's downloaded files (${own.files})`;
  if (within(target, await resolvePath(path.dirname(own.log)))) return `recon's logs (${path.dirname(own.log)})`;
  if (inFamily(snapshot)) return `the published snapshot ${own.published} (or its temp files)`;
  return null;
}

function* pathPrefixes(p: string): Generator<string> {
  for (let d = path.dirname(p); d !== path.dirname(d); d = path.dirname(d)) yield d;
}

const sameFamilyDir = (dir: string, file: string) => path.dirname(dir) === path.dirname(file) && path.basename(dir).startsWith(`${path.basename(file)}.`);

/** Refuses an output path that is one of recon's own files (a UsageError naming the file and the flag). */
export async function refuseOwnFile(p: string, own: OwnFiles, flag: string): Promise<void> {
  const what = await ownFileAt(p, own);
  if (what) throw new UsageError(`${flag} ${p} is ${what}: recon never writes over its own files; choose another path`);
}

/**
 * --published must name a published snapshot, never a live store: opening a store, even read-only, takes
 * its file lock, and the nightly run could then not open it. A live store is the --db file, or any file
 * with recon's run lock or a DuckDB WAL beside it (a published snapshot has neither).
 */
export async function refuseLiveStore(own: OwnFiles): Promise<void> {
  const snapshot = await resolvePath(own.published);
  const live = snapshot === (await resolvePath(own.db)) || (await exists(`${snapshot}.lock`)) || (await exists(`${snapshot}.wal`));
  if (live) {
    throw new UsageError(`--published ${own.published} is a live store, not a published snapshot: reading it would lock out the nightly run; `
      + `recon sql reads the copy each run publishes (default <db folder>/published/recon.duckdb)`);
  }
}
