// Temp folders for tests: one a test makes and removes itself, or a fresh one for every test of a describe.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

export function tempDir(prefix = 'recon-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh folder for each test of the enclosing describe (or file), removed after the test: `.dir` read inside a
 * test is that test's own.
 */
export function dirPerTest(prefix?: string): { readonly dir: string } {
  let current: { dir: string; cleanup: () => void } | null = null;
  beforeEach(() => {
    current = tempDir(prefix);
  });
  afterEach(() => {
    current?.cleanup();
    current = null;
  });
  return {
    get dir() {
      if (!current) throw new Error('dirPerTest: the folder exists only while a test runs');
      return current.dir;
    },
  };
}

/**
 * A temp folder the tests of a file share: made before the file's own beforeAll hooks registered after this
 * call, removed after its last test. Its `dir` is read in a hook or a test (it does not exist before).
 */
export function tempDirForFile(prefix: string): { readonly dir: string } {
  let made: { dir: string; cleanup: () => void } | null = null;
  beforeAll(() => {
    made = tempDir(prefix);
  });
  afterAll(() => made?.cleanup());
  return {
    get dir() {
      if (!made) throw new Error('tempDirForFile: the folder is made in beforeAll; read dir in a hook or a test');
      return made.dir;
    },
  };
}
