// Tests that start the CLI as a real child process (crash and lock tests) need dist/ built. `tsc -b` builds
// incrementally and does nothing when dist/ is current (make test has just built it), so a run of one test
// file starts in seconds. The run's folder, for what its test files share (test/helpers/run-folder.ts), is
// made here and goes when the run ends.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type {} from './helpers/run-folder.js'; // the provided folder's type

export default function setup(project: TestProject): () => void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync('npx', ['tsc', '-b', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  chmodSync(new URL('../dist/pipelines/cli/main.js', import.meta.url), 0o755); // the bin, as make build leaves it
  const folder = mkdtempSync(path.join(tmpdir(), 'recon-test-run-'));
  project.provide('runFolder', folder);
  return () => rmSync(folder, { recursive: true, force: true });
}
