// The files of a Parquet export and its manifest (src/store/export.ts). Every export writes new file names
// (its id in each), so a reader never finds other bytes under a name it has listed; the manifest names the
// export and its files and is written last, atomically; readers follow it. Files of an export are removed
// only once two newer manifests are in place — a reader that read the manifest just before the last export
// has until the next one — and only files an export of recon's wrote (a manifest or an unfinished export's
// journal lists them). recon's bookkeeping lives in <dir>/_recon (readers skip names starting with _).
import { constants } from 'node:fs';
import { copyFile, open, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeFolder, writeFileAtomically } from '../files.js';
import { pidIsAlive } from '../ops/lock.js';
import { UsageError } from '../errors.js';

const MANIFEST = 'manifest.json';
export const FORMAT = 'recon-parquet-export/1';
/** Hive's name for the partition of rows without a month. */
const HIVE_NULL = '__HIVE_DEFAULT_PARTITION__';

export interface ExportFile {
  /** Relative to the export folder, with '/'. */
  path: string;
  /** 'YYYY-MM', 'none' (the Hive null partition) or null for an object written whole. */
  month: string | null;
  rows: number;
  bytes: number;
  fingerprint: string;
}

export interface ManifestObject {
  kind: 'table' | 'view';
  partitioned: boolean;
  columns: Array<{ name: string; type: string }>;
  files: ExportFile[];
}

export interface Manifest {
  format: typeof FORMAT;
  export_id: string;
  exported_at: string;
  snapshot_generation: string | null;
  snapshot_run_id: string | null;
  books_tz: string;
  objects: Record<string, ManifestObject>;
}

const bookkeeping = (dir: string) => path.join(dir, '_recon');

/** Where a month's (or a whole object's) file of export `id` goes, relative to the export folder. */
export function filePath(object: string, month: string | null, id: string): string {
  if (month === null) return `${object}/${id}.parquet`;
  return `${object}/month=${month === 'none' ? HIVE_NULL : month}/${id}.parquet`;
}

async function readManifest(file: string): Promise<Manifest | null> {
  try {
    const m = JSON.parse(await readFile(file, 'utf8')) as Manifest;
    return m.format === FORMAT && typeof m.objects === 'object' ? m : null;
  } catch {
    return null;
  }
}

export const currentManifest = (dir: string) => readManifest(path.join(dir, MANIFEST));
export const previousManifest = (dir: string) => readManifest(path.join(bookkeeping(dir), 'previous.json'));

/** One export at a time per folder: a lock file naming the process; a dead holder's lock is taken over. */
export async function lockExportFolder(dir: string): Promise<() => Promise<void>> {
  const lock = path.join(bookkeeping(dir), 'lock');
  await makeFolder(bookkeeping(dir));
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lock, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
      if (Number.isInteger(holder) && holder > 0 && pidIsAlive(holder)) {
        throw new UsageError(`another recon export (pid ${holder}) is writing ${dir}; try again once it ends`);
      }
      await rm(lock, { force: true });
    }
  }
  throw new UsageError(`cannot lock ${dir} for the export; remove ${lock} if no export is running`);
}

/** The files export `id` is about to write, recorded first: if it dies, the next export knows them for its own. */
export async function writeJournal(dir: string, id: string, files: readonly string[]): Promise<void> {
  const text = JSON.stringify({ pid: process.pid, files });
  await writeFileAtomically(path.join(bookkeeping(dir), `pending-${id}.json`), (t) => writeFile(t, text));
}

export async function dropJournal(dir: string, id: string): Promise<void> {
  await rm(path.join(bookkeeping(dir), `pending-${id}.json`), { force: true });
}

/** Files of exports that died before their manifest (their journal's process gone), not named by `keep`. */
export async function removeUnfinished(dir: string, keep: ReadonlySet<string>): Promise<number> {
  let removed = 0;
  for (const name of await readdir(bookkeeping(dir)).catch(() => [] as string[])) {
    if (!/^pending-[a-z0-9-]+\.json$/.test(name)) continue;
    const journal = path.join(bookkeeping(dir), name);
    const text = await readFile(journal, 'utf8').catch(() => '{}');
    const parsed = JSON.parse(text) as { pid?: number; files?: string[] };
    if (typeof parsed.pid === 'number' && pidIsAlive(parsed.pid)) continue;
    for (const f of parsed.files ?? []) if (!keep.has(f)) removed += await removeFile(dir, f);
    await rm(journal, { force: true });
  }
  return removed;
}

/** Writes the manifest last (and keeps the one it replaces as the previous). */
export async function publishManifest(dir: string, manifest: Manifest, replaced: Manifest | null): Promise<void> {
  if (replaced) {
    const text = JSON.stringify(replaced);
    await writeFileAtomically(path.join(bookkeeping(dir), 'previous.json'), (t) => writeFile(t, text));
  }
  await writeFileAtomically(path.join(dir, MANIFEST), (t) => writeFile(t, `${JSON.stringify(manifest, null, 1)}\n`));
}

export function filesOf(m: Manifest | null): Set<string> {
  return new Set(m ? Object.values(m.objects).flatMap((o) => o.files.map((f) => f.path)) : []);
}

/** Removes `file` (relative) and its folder when that is left empty; 1 when removed. */
export async function removeFile(dir: string, file: string): Promise<number> {
  const abs = path.join(dir, ...file.split('/'));
  // only recon's Parquet files, inside the folder
  if (!abs.startsWith(path.join(dir, path.sep)) || !abs.endsWith('.parquet')) return 0;
  try {
    await rm(abs);
  } catch {
    return 0;
  }
  for (let d = path.dirname(abs); d !== dir && d.startsWith(dir); d = path.dirname(d)) {
    if (!(await rmdir(d).then(() => true, () => false))) break;
  }
  return 1;
}

/** What an export of recon's named before exports were versioned: <object>/[month=…/]data[_N].parquet. */
const UNVERSIONED = /^data(_\d+)?\.parquet$/;

/**
 * Removes the files of an unversioned export of recon's from the folders of `objects` (their names only), so
 * the first manifest is the only export a reader listing the folder finds.
 */
export async function removeUnversioned(dir: string, objects: readonly string[]): Promise<number> {
  let removed = 0;
  for (const object of objects) {
    const folder = path.join(dir, object);
    for (const e of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
      if (e.isFile() && UNVERSIONED.test(e.name)) removed += await removeFile(dir, `${object}/${e.name}`);
      if (!e.isDirectory() || !e.name.startsWith('month=')) continue;
      for (const name of await readdir(path.join(folder, e.name)).catch(() => [] as string[])) {
        if (UNVERSIONED.test(name)) removed += await removeFile(dir, `${object}/${e.name}/${name}`);
      }
    }
  }
  return removed;
}

/** A snapshot month file into the export, as a copy-on-write clone where the file system offers one. */
export async function copyInto(source: string, target: string): Promise<void> {
  await makeFolder(path.dirname(target));
  await copyFile(source, target, constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL);
}

/** fsync every file written, then their folders: the manifest names nothing that is not on disk. */
export async function syncAll(dir: string, files: readonly string[]): Promise<void> {
  const folders = new Set<string>();
  for (const f of files) {
    const abs = path.join(dir, ...f.split('/'));
    const h = await open(abs, 'r+');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
    folders.add(path.dirname(abs));
  }
  for (const d of folders) {
    const h = await open(d, 'r').catch(() => null);
    if (h) await h.sync().catch(() => undefined).finally(() => h.close());
  }
}
