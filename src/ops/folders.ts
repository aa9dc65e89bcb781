// Folders a run writes to, proved writable before the run spends its night on the service.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';

const PLAIN: Record<string, string> = {
  ENOTDIR: 'a file stands where a folder is needed',
  EEXIST: 'a file stands where a folder is needed',
  ENOENT: 'the folder does not exist',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EISDIR: 'a folder stands where a file is needed',
};

/** A file-system error in words a user acts on ("permission denied"), the raw code only when unknown. */
export function plainFsError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return (e.code && PLAIN[e.code]) ?? e.code ?? e.message;
}

/** Creates `dir` if needed and writes (then removes) a probe file in it; a UsageError naming `setting` if not. */
export async function requireWritableFolder(dir: string, setting: string): Promise<void> {
  const probe = path.join(dir, `.recon-write-probe-${process.pid}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '');
  } catch (err) {
    throw new UsageError(`cannot write to ${path.resolve(dir)}: ${plainFsError(err)}; check ${setting} and the folder's permissions and free space`);
  }
  await rm(probe, { force: true });
}
