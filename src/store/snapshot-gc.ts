// Which month files a snapshot may still need. Each publish is a generation: a manifest of the files its
// DuckDB file names (<published>.parts/generations/<id>.json), written before the swap. A reader that opened
// an older snapshot keeps reading that generation's files, so after a swap recon removes only the files that
// no generation still in use names: the new one, the one before it (a reader may have opened it an instant
// before the swap), and every generation a live session has leased (recon sql and recon export write theirs
// under <published>.tmp/, src/access/snapshot.ts). A tool that keeps a connection to the snapshot open across
// two publishes without a lease gets "file not found", never another night's rows: file names are never reused.
import { readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomically } from '../files.js';
import { pidIsAlive } from '../ops/lock.js';

/** The folder of the snapshot's month files. Beside the snapshot and named after it: recon's own files guard it. */
export const partsDirOf = (published: string): string => `${published}.parts`;

/** Where sessions lease the generation they opened (the sessions' temp folders). */
export const leasesDirOf = (published: string): string => `${published}.tmp`;

const generationsDir = (partsDir: string) => path.join(partsDir, 'generations');

/** A file name recon gives a generation or a month file: letters, digits and dashes. */
const OWN_NAME = /^[a-z0-9][a-z0-9-]*\.parquet$/;
const LEASE = /^[a-z]+-(\d+)-[0-9a-f]+$/;

export function newGeneration(now: Date): string {
  return `g${now.getTime().toString(36)}-${Math.floor(Math.random() * 36 ** 6).toString(36).padStart(6, '0')}`;
}

/** Records which files a generation names, durably, before its snapshot becomes visible. */
export async function writeGeneration(partsDir: string, generation: string, files: readonly string[]): Promise<void> {
  await writeText(path.join(generationsDir(partsDir), `${generation}.json`), JSON.stringify({ generation, files }));
}

const writeText = (target: string, text: string) => writeFileAtomically(target, (temp) => writeFile(temp, text));

async function readGeneration(partsDir: string, generation: string): Promise<string[] | null> {
  try {
    const text = await readFile(path.join(generationsDir(partsDir), `${generation}.json`), 'utf8');
    const parsed = JSON.parse(text) as { files?: unknown };
    return Array.isArray(parsed.files) ? parsed.files.map(String) : null;
  } catch {
    return null;
  }
}

/** The session at `dir` (a folder under leasesDirOf) reads `generation`: its files stay while it lives. */
export async function writeLease(dir: string, generation: string): Promise<void> {
  await writeText(path.join(dir, 'generation'), generation);
}

/** The generations leased by sessions whose process is alive. */
async function leasedGenerations(published: string): Promise<Set<string>> {
  const dir = leasesDirOf(published);
  const out = new Set<string>();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const pid = Number(LEASE.exec(name)?.[1]);
    if (!Number.isInteger(pid) || !pidIsAlive(pid)) continue;
    const generation = await readFile(path.join(dir, name, 'generation'), 'utf8').catch(() => null);
    if (generation) out.add(generation.trim());
  }
  return out;
}

interface Collect {
  published: string;
  archiveDir: string;
  /** Generations to keep besides the leased ones (the new one and the one it replaced). */
  keep: ReadonlySet<string>;
  /** Archive files the store still lists (archive_files), absolute. */
  archiveInUse: ReadonlySet<string>;
}

/**
 * Removes the month files and archive files no kept generation names (and the store no longer lists), then
 * the manifests of the generations let go. Returns the files removed.
 */
export async function collectGarbage(o: Collect): Promise<number> {
  const partsDir = partsDirOf(o.published);
  const keep = new Set([...o.keep, ...(await leasedGenerations(o.published))]);
  const named = new Set<string>();
  const manifests = (await readdir(generationsDir(partsDir)).catch(() => [] as string[]))
    .filter((n) => n.endsWith('.json'));
  const released: string[] = [];
  for (const m of manifests) {
    const generation = m.slice(0, -'.json'.length);
    if (!keep.has(generation)) {
      released.push(m);
      continue;
    }
    // a kept generation whose manifest cannot be read: keep everything rather than guess
    const files = await readGeneration(partsDir, generation);
    if (files === null) return 0;
    for (const f of files) named.add(f);
  }
  let removed = 0;
  for (const file of await ownFiles(partsDir, 2)) {
    if (!named.has(file)) removed += await remove(file);
  }
  for (const file of await ownFiles(o.archiveDir, 2)) {
    if (!named.has(file) && !o.archiveInUse.has(file)) removed += await remove(file);
  }
  for (const m of released) await rm(path.join(generationsDir(partsDir), m), { force: true });
  return removed;
}

/** recon's Parquet files `depth` folders below `root` (<table>/<month>/<file>), never anything else. */
async function ownFiles(root: string, depth: number): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, level: number): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(dir, e.name);
      if (level < depth && e.isDirectory() && e.name !== 'generations') await walk(p, level + 1);
      else if (level === depth && e.isFile() && OWN_NAME.test(e.name)) out.push(p);
    }
  };
  await walk(root, 0);
  return out;
}

async function remove(file: string): Promise<number> {
  try {
    await rm(file);
  } catch {
    return 0;
  }
  // the month's folder goes with its last file; a folder that is not empty stays
  await rmdir(path.dirname(file)).catch(() => undefined);
  return 1;
}
