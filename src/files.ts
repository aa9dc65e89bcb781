// Folders and files recon writes: created without Node's recursive mkdir (which never returns on a path
// under /proc), proved writable before a night is spent, and written whole or not at all.
import { randomUUID } from 'node:crypto';
import { constants, createWriteStream, mkdirSync, statSync, type WriteStream } from 'node:fs';
import { access, lstat, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TerminalError, UsageError, oneLine } from './errors.js';

const PLAIN: Record<string, string> = {
  ENOTDIR: 'a file stands where a folder is needed',
  EEXIST: 'a file stands where a folder is needed',
  ENOENT: 'the folder does not exist and cannot be created',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is too large for the file system',
  EISDIR: 'a folder stands where a file is needed',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
};

/** A file-system error in words a user acts on ("permission denied"), the raw code only when unknown. */
export function plainFsError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return (e.code && PLAIN[e.code]) ?? e.code ?? e.message;
}

/** A file recon could not write, in one sentence: which file, what went wrong, what to check. */
export class WriteError extends TerminalError {
  override readonly name = 'WriteError';
  constructor(readonly target: string, readonly setting: string | null, cause: unknown) {
    super(
      `cannot write ${target}: ${oneLine(plainFsError(cause))}; ` +
        `check${setting ? ` ${setting} and` : ''} the folder's permissions and free space (nothing was replaced)`,
      { cause },
    );
  }
}

/**
 * mkdir -p, one level at a time from the nearest folder that exists. Node's `mkdir(…, {recursive})`
 * loops for ever on some paths (`/proc/x`: ENOENT from a folder that exists), taking a run with it.
 */
export async function makeFolder(dir: string): Promise<void> {
  makeFolderSync(dir); // a few stat and mkdir calls: one walk for both callers
}

/** makeFolder's walk, synchronous (also for the places that cannot wait: a logger made before anything else). */
export function makeFolderSync(dir: string): void {
  const target = path.resolve(dir);
  const missing: string[] = [];
  for (let d = target; ; d = path.dirname(d)) {
    let info;
    try {
      info = statSync(d);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (info) {
      if (!info.isDirectory()) throw Object.assign(new Error(`${d} is not a folder`), { code: 'ENOTDIR' });
      break;
    }
    if (path.dirname(d) === d) break;
    missing.push(d);
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

/** Creates `dir` if needed and writes (then removes) a probe file in it; a UsageError naming `setting` if not. */
export async function requireWritableFolder(dir: string, setting: string): Promise<void> {
  const probe = path.join(dir, `.recon-write-probe-${process.pid}`);
  try {
    await makeFolder(dir);
    await writeFile(probe, '');
  } catch (err) {
    throw new UsageError(
      `cannot write to ${path.resolve(dir)}: ${plainFsError(err)}; check ${setting} and the folder's permissions ` +
        `and free space`,
    );
  }
  await rm(probe, { force: true });
}

/** A folder recon reads (statements): it must exist and be listable; a UsageError naming `setting` if not. */
export async function requireReadableFolder(dir: string, setting: string): Promise<void> {
  try {
    const st = await stat(dir);
    if (!st.isDirectory()) throw new Error('not a folder');
    await access(dir, constants.R_OK | constants.X_OK);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : plainFsError(err);
    throw new UsageError(`cannot read the folder ${path.resolve(dir)}: ${why}; check ${setting}`);
  }
}

/** The temp name a file is written under before it is renamed into place (hidden, beside it, ours by pid). */
function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
}

/**
 * Writes `target` whole or not at all: `fill` writes the temp file beside it (created empty first, so a
 * folder that cannot be written is known at once), which is fsynced and renamed over the target only
 * when fill returns. On any failure the temp file goes and an existing target is untouched. Errors of the
 * file system become a WriteError naming the target (and `setting`).
 */
export async function writeFileAtomically<T>(
  target: string,
  fill: (tempPath: string) => Promise<T>,
  setting: string | null = null,
): Promise<T> {
  let temp: string | null = null;
  try {
    await makeFolder(path.dirname(path.resolve(target)));
    const created = tempPathFor(target);
    await (await open(created, 'wx')).close();
    temp = created;
    const out = await fill(temp);
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
    temp = null;
    return out;
  } catch (err) {
    if (temp) await rm(temp, { force: true }).catch(() => undefined);
    if ((err as NodeJS.ErrnoException).code && !(err instanceof TerminalError))
      throw new WriteError(target, setting, err);
    throw err;
  }
}

/**
 * Lets `write` fill a write stream on `file`, ends it and waits until it is closed. A stream error (a full
 * disk) ends the wait at once with that error, whatever `write` is waiting on.
 */
export async function streamInto<T>(file: string, write: (out: WriteStream) => Promise<T>): Promise<T> {
  const out = createWriteStream(file);
  const failed = new Promise<never>((_resolve, reject) => out.once('error', reject));
  failed.catch(() => undefined); // raced below; this only stops an early error going unhandled
  const closed = new Promise<void>((resolve) => out.once('close', resolve));
  try {
    const result = await Promise.race([write(out), failed]);
    if (!out.writableEnded) out.end();
    await Promise.race([closed, failed]);
    return result;
  } catch (err) {
    out.destroy();
    throw err;
  }
}

/** True when `p` exists (a symlink counts, whatever it points at). */
export async function exists(p: string): Promise<boolean> {
  return lstat(p).then(() => true, () => false);
}
