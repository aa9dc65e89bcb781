// Tests that start the CLI as a real child process (crash and lock tests) need dist/ built. `tsc -b` builds
// incrementally and does nothing when dist/ is current (make test has just built it), so a run of one test
// file starts in seconds.
import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync('npx', ['tsc', '-b', 'tsconfig.json'], { cwd: root, stdio: 'inherit' });
  chmodSync(new URL('../dist/pipelines/cli/main.js', import.meta.url), 0o755); // the bin, as make build leaves it
}
