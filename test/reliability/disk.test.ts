// Item 8: disk full and a DB folder that cannot be written. The tests run as root, which ignores file
// permissions, so both are simulated in ways root cannot bypass:
// - "disk full": the CLI runs under `ulimit -f` (RLIMIT_FSIZE binds root too). Node ignores SIGXFSZ, so
//   a write past the limit fails with EFBIG, as a write to a full disk fails with ENOSPC: the DuckDB
//   store and the snapshot copy can grow no further than the limit.
// - "read-only folder": --db points below a regular file, so nothing can be created there (ENOTDIR).
// Either way: exit 2, a message on stderr that says what failed, and the previous published snapshot
// byte for byte as it was.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { fingerprints, tempDir } from '../helpers/recon.js';
import { CLI } from '../helpers/child.js';
import { runCliHere } from '../helpers/in-process.js';
import { spawn } from 'node:child_process';
import { assertWholeDisbursements, sandboxLineCounts } from '../helpers/whole-store.js';

let sb: Sandbox;
let dir: string;
let cleanup: () => void;
const published = () => path.join(dir, 'published', 'recon.duckdb');
const db = () => path.join(dir, 'store', 'recon.duckdb');
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const args = (dbPath: string) => ['run', '--api-url', sb.url, '--api-key', sb.apiKey, '--db', dbPath, '--published', published(),
  '--reports', path.join(dir, 'reports'), '--rate-per-minute', '60000', '--sample-budget', '0'];

beforeAll(async () => {
  sb = await startSandbox({ seed: 71, disbursements: 30, payoutsPerDisbursement: 8, rateLimit: { limit: 1_000_000 } });
  ({ dir, cleanup } = tempDir('recon-disk-'));
  const first = await runCliHere(args(db()));
  expect(first.code, first.stderr).toBe(0);
});
afterAll(async () => {
  await sb.close();
  cleanup();
});

/** The CLI under `ulimit -f` (1 KiB blocks in bash). */
function runLimited(kib: number, argv: string[]) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn('bash', ['-c', `ulimit -f ${kib} && exec "$0" "$@"`, process.execPath, CLI, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('when the disk is full', () => {
  it('the run exits 2 saying so, the previous snapshot stays as it was, and the store stays whole', async () => {
    const before = sha(published());
    const prints = await fingerprints(db());
    const limit = Math.floor(statSync(published()).size / 1024 / 2); // the snapshot copy cannot fit
    const run = await runLimited(limit, [...args(db()), '--full']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/File too large/);
    expect(run.stderr).toMatch(/check free space/);
    expect(sha(published())).toBe(before);
    expect(readdirSync(path.dirname(published())).filter((n) => n.includes('.tmp-'))).toEqual([]);
    // the store is intact, and the next run with room publishes again
    expect(await assertWholeDisbursements(db(), sandboxLineCounts(sb))).toBe(30);
    expect(await fingerprints(db())).toEqual(prints);
    const next = await runCliHere(args(db()));
    expect(next.code, next.stderr).toBe(0);
    expect(sha(published())).not.toBe(before);
  });
});

describe('when the DB folder cannot be written', () => {
  it('the run exits 2 naming the path, and the previous snapshot stays as it was', async () => {
    const before = sha(published());
    const blocker = path.join(dir, 'not-a-folder');
    writeFileSync(blocker, 'a regular file where the DB folder should be\n');
    const run = await runCliHere(args(path.join(blocker, 'recon.duckdb')));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(path.join(blocker, 'recon.duckdb'));
    expect(run.stderr).toMatch(/not a directory|cannot/i);
    expect(sha(published())).toBe(before);
  });
});
