// Folders a run writes to, proved writable before the run spends its night on the service.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';

/** Creates `dir` if needed and writes (then removes) a probe file in it; a UsageError naming `setting` if not. */
export async function requireWritableFolder(dir: string, setting: string): Promise<void> {
  const probe = path.join(dir, `.recon-write-probe-${process.pid}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, '');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new UsageError(`cannot write to ${path.resolve(dir)} (${e.code ?? e.message}); check ${setting} and the folder's permissions and free space`);
  } finally {
    await rm(probe, { force: true });
  }
}
