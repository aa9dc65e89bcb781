// Item 7: locks. test/pipelines/nightly.test.ts covers an in-process reader, two runs where the second
// starts once the first is reading, and one stale lock; crash.test.ts here recovers a stale lock after
// every kill. This suite adds an accountant in another process (as DuckDB's UI or a notebook would be)
// who keeps the published snapshot open across runs, and several runs started at the same instant.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index.js';
import { tempDir } from '../helpers/recon.js';
import { ROOT, startCli } from '../helpers/child.js';
import { runCliHere } from '../helpers/in-process.js';

const open: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c();
});

/** A separate process holding one read-only connection to the snapshot, answering a query per stdin line. */
const READER = `
import { DuckDBInstance } from '@duckdb/node-api';
import { createInterface } from 'node:readline';
const instance = await DuckDBInstance.create(process.argv[1], { access_mode: 'READ_ONLY' });
const connection = await instance.connect();
process.stdout.write('ready\\n');
for await (const sql of createInterface({ input: process.stdin })) {
  try {
    const rows = (await connection.runAndReadAll(sql)).getRows();
    process.stdout.write(JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)) + '\\n');
  } catch (e) {
    process.stdout.write(JSON.stringify({ error: e.message }) + '\\n');
  }
}`;

function accountant(file: string): { child: ChildProcess; ask(sql: string): Promise<unknown> } {
  const child = spawn(process.execPath, ['--input-type=module', '-e', READER, file], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error('the reader exited');
    return value as string;
  };
  const ready = next();
  return {
    child,
    async ask(sql) {
      expect(await ready).toBe('ready');
      child.stdin!.write(`${sql}\n`);
      return JSON.parse(await next()) as unknown;
    },
  };
}

async function setup(latency: [number, number] = [0, 0]) {
  const sb = await startSandbox({ seed: 61, disbursements: 20, payoutsPerDisbursement: 5, latencyMs: latency, rateLimit: { limit: 1_000_000 } });
  const t = tempDir('recon-locks-');
  open.push(() => sb.close(), t.cleanup);
  const args = (log: string) => ['run', '--api-url', sb.url, '--api-key', sb.apiKey, '--db', path.join(t.dir, 'recon.duckdb'),
    '--reports', path.join(t.dir, 'reports'), '--rate-per-minute', '60000', '--sample-budget', '0', '--log-file', path.join(t.dir, log)];
  return { sb, dir: t.dir, args };
}

describe('locks', () => {
  it('an accountant\'s open connection to the published snapshot (another process) does not fail the runs that replace it', async () => {
    const { dir, args } = await setup();
    expect((await runCliHere(args('1.log'))).code).toBe(0);
    const reader = accountant(path.join(dir, 'published', 'recon.duckdb'));
    open.push(() => void reader.child.kill());
    const runs = 'SELECT count(*) FROM runs';
    expect(await reader.ask(runs)).toEqual([[1]]);
    for (const n of [2, 3]) {
      const again = await runCliHere([...args(`${n}.log`), '--full']);
      expect(again.code, again.stderr).toBe(0);
      // the open connection keeps its snapshot and keeps answering; a new one sees the latest
      expect(await reader.ask(runs)).toEqual([[1]]);
      const fresh = accountant(path.join(dir, 'published', 'recon.duckdb'));
      open.push(() => void fresh.child.kill());
      expect(await fresh.ask(runs)).toEqual([[n]]);
      expect(await fresh.ask('SELECT count(*) FROM disbursements')).toEqual([[20]]);
      fresh.child.kill();
    }
  });

  it('of three runs started at the same instant, exactly one proceeds and the others exit 3 naming the holder', async () => {
    const { args } = await setup([10, 20]);
    const all = await Promise.all(['a', 'b', 'c'].map((n) => startCli(args(`${n}.log`)).done));
    const codes = all.map((r) => r.code).sort();
    expect(codes).toEqual([0, 3, 3]);
    for (const r of all.filter((x) => x.code === 3)) {
      expect(r.stderr).toMatch(/another recon run holds the lock \(pid \d+, `recon run`/);
      expect(r.stdout).toBe('');
    }
  });
});
