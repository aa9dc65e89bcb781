// recon's own files — the store with its WAL, lock and temp files, the downloaded files, the archive, the
// logs, the published snapshot with its month files — are out of reach of what an accountant names: an --out,
// an export folder, or a --published that is really the live store. Paths are compared as the file system resolves them
// (symbolic links followed, `..` and `.` gone), so no spelling of a path gets around the check.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { exists } from '../files.js';
import type { StoreLayout } from '../store/layout.js';

/** The live store (--db), the snapshot (--published), and beside the store the downloaded files, archive and logs. */
export type OwnFiles = Pick<StoreLayout, 'db' | 'published' | 'files' | 'archive' | 'log'>;

const MAX_LINKS = 40;

/**
 * `p` as the file system resolves it, also when it (or its last parts) does not exist yet. Synchronous: it is
 * asked before a command opens its log, which it must never open onto one of recon's own files.
 */
function resolvePath(p: string, hops = 0): string {
  const abs = path.resolve(p);
  const real = attempt(() => realpathSync(abs));
  if (real) return real;
  const info = attempt(() => lstatSync(abs));
  if (info?.isSymbolicLink() && hops < MAX_LINKS) {
    // a link to a file that does not exist yet: writing through it would create its target
    return resolvePath(path.resolve(path.dirname(abs), readlinkSync(abs)), hops + 1);
  }
  const parent = path.dirname(abs);
  if (parent === abs) return abs;
  return path.join(resolvePath(parent, hops), path.basename(abs));
}

function attempt<T>(fn: () => T): T | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

const within = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);

/**
 * Which of recon's own files `p` is: the live store (or its WAL, lock, temp files), the downloaded files, the
 * archived months, the logs, the snapshot (its month files <published>.parts/ included).
 */
type OwnKind = 'store' | 'files' | 'archive' | 'logs' | 'snapshot';

function ownKindAt(p: string, own: OwnFiles): OwnKind | null {
  const target = resolvePath(p);
  const store = resolvePath(own.db);
  const snapshot = resolvePath(own.published);
  const sameFamily = (file: string) => path.dirname(target) === path.dirname(file)
    && (path.basename(target) === path.basename(file) || path.basename(target).startsWith(`${path.basename(file)}.`));
  // under the store's or the snapshot's own temp folder (DuckDB spills there), or the file itself, its WAL, lock, notes
  const inFamily = (file: string) => sameFamily(file) || [...pathPrefixes(target)].some((d) => sameFamilyDir(d, file));
  if (inFamily(store)) return 'store';
  if (within(target, resolvePath(own.files))) return 'files';
  if (within(target, resolvePath(own.archive))) return 'archive';
  if (within(target, resolvePath(path.dirname(own.log)))) return 'logs';
  if (inFamily(snapshot)) return 'snapshot';
  return null;
}

/** What of recon's own `p` is (in words), or null when it is none of them. */
function ownFileAt(p: string, own: OwnFiles, allowed: readonly OwnKind[] = []): string | null {
  const kind = ownKindAt(p, own);
  if (kind === null || allowed.includes(kind)) return null;
  return {
    store: `the live store ${own.db} (or its WAL, lock or temp files)`,
    files: `recon's downloaded files (${own.files})`,
    archive: `recon's archived months (${own.archive})`,
    logs: `recon's logs (${path.dirname(own.log)})`,
    snapshot: `the published snapshot ${own.published} (or its temp files)`,
  }[kind];
}

function* pathPrefixes(p: string): Generator<string> {
  for (let d = path.dirname(p); d !== path.dirname(d); d = path.dirname(d)) yield d;
}

const sameFamilyDir = (dir: string, file: string) =>
  path.dirname(dir) === path.dirname(file) && path.basename(dir).startsWith(`${path.basename(file)}.`);

/**
 * Refuses an output path that is one of recon's own files (a UsageError naming the file and the flag);
 * `allowed` are the kinds the option is meant to write (--log-file: the logs).
 */
export function refuseOwnFile(p: string, own: OwnFiles, flag: string, allowed: readonly OwnKind[] = []): void {
  const what = ownFileAt(p, own, allowed);
  if (what) throw new UsageError(`${flag} ${p} is ${what}: recon never writes over its own files; choose another path`);
}

/** A path the user names for recon to write (an option), and the kinds of recon's own files it is meant to write. */
export interface OutputPath {
  /** The option, as a message names it (--metrics-file / RECON_METRICS_FILE). */
  flag: string;
  path: string;
  allowed: OwnKind[];
}

/** Refuses, before anything is written, an output path that is one of recon's own files (exit 2, naming the option). */
export function guardOutputs(outputs: readonly OutputPath[], own: OwnFiles): void {
  for (const o of outputs) refuseOwnFile(o.path, own, o.flag, o.allowed);
}

/**
 * --published must name a published snapshot, never a live store: opening a store, even read-only, takes
 * its file lock, and the nightly run could then not open it. A live store is the --db file, or any file
 * with recon's run lock or a DuckDB WAL beside it (a published snapshot has neither).
 */
export async function refuseLiveStore(own: OwnFiles): Promise<void> {
  const snapshot = resolvePath(own.published);
  const live =
    snapshot === resolvePath(own.db) || (await exists(`${snapshot}.lock`)) || (await exists(`${snapshot}.wal`));
  if (live) {
    throw new UsageError(
      `--published ${own.published} is a live store, not a published snapshot: reading it would lock out the ` +
        `nightly run; ` +
        `recon sql reads the copy each run publishes (default <db folder>/published/recon.duckdb)`,
    );
  }
}
