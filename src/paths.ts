// Where the package's own files live at run time (sql/, src/sync/layouts.json), whether running from
// src/ under vitest or from dist/ after the build.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'sql'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the recon package root (package.json beside sql/)');
    dir = parent;
  }
}

export const PROJECT_ROOT = findRoot();
export const SQL_DIR = path.join(PROJECT_ROOT, 'sql');
