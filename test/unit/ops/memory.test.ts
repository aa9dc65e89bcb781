// Memory settings: the job's DuckDB limit (and the sync's, given back after it), the hint on DuckDB's
// out-of-memory error, the allocator variable the bin sets, and the appender's reused data chunk.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { parseCommandArgs } from '../../../pipelines/config.js';
import { silentLogger } from '../../../src/log.js';
import { appendColumns } from '../../../src/store/append.js';
import { DUCKDB_ALLOCATOR_CONF, DUCKDB_ALLOCATOR_ENV, NODE_FLAGS, returnFreedMemoryPromptly } from '../../../src/ops/memory.js';
import { memoryHint, withRun } from '../../../pipelines/run.js';
import { runSettings, syncSettings } from '../../../pipelines/settings.js';
import { startSandbox } from '../../../sandbox/index.js';
import { tempDir } from '../../helpers/recon.js';
import { syncStage } from '../../../src/sync/stage.js';

const open: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of open.splice(0)) await close();
});
function dbPath(): string {
  const t = tempDir();
  open.push(t.cleanup);
  return path.join(t.dir, 'recon.duckdb');
}

/** DuckDB's own rendering of a limit given in MB (it counts 1 MB = 10^6 bytes and shows MiB). */
async function rendered(limit: string): Promise<string> {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  await c.run(`SET memory_limit = '${limit}'`);
  const value = String((await c.runAndReadAll(`SELECT current_setting('memory_limit')`)).getRowsJS()[0]![0]);
  c.closeSync();
  instance.closeSync();
  return value;
}

describe('DuckDB memory limits', () => {
  it('holds a job to --memory-mb, defaulting to 192', async () => {
    const db = dbPath();
    const seen: string[] = [];
    for (const args of [[], ['--memory-mb', '512']]) {
      const { config } = parseCommandArgs(['--db', db, ...args], ['db', 'memoryMb'], {}, {});
      const code = await withRun('check', runSettings(config), silentLogger, async (ctx) => {
        seen.push(String((await ctx.store.connection.runAndReadAll(`SELECT current_setting('memory_limit')`)).getRowsJS()[0]![0]));
        return 0;
      }, { handleSignals: false });
      expect(code).toBe(0);
    }
    expect(seen).toEqual([await rendered('192MB'), await rendered('512MB')]);
  });

  it('refuses a limit too small to run with, naming where the value came from (the flag, or the variable)', () => {
    expect(() => parseCommandArgs(['--memory-mb', '8'], ['memoryMb'], {}, {})).toThrow(/^--memory-mb must be ≥ 64, got 8$/);
    expect(() => parseCommandArgs([], ['memoryMb'], {}, { RECON_MEMORY_MB: '8' })).toThrow(/RECON_MEMORY_MB must be ≥ 64, got 8/);
  });

  it('gives the sync --sync-memory-mb and the rest of the run --memory-mb back', async () => {
    const sb = await startSandbox({ seed: 5, disbursements: 6, payoutsPerDisbursement: 4, rateLimit: { limit: 1_000_000 } });
    open.push(() => sb.close());
    const db = dbPath();
    const { config } = parseCommandArgs(['--api-url', sb.url, '--api-key', sb.apiKey, '--db', db, '--memory-mb', '300', '--sync-memory-mb', '64',
      '--sample-budget', '0', '--rate-per-minute', '60000'], ['apiUrl', 'apiKey', 'db', 'memoryMb', 'syncMemoryMb', 'sampleBudget', 'ratePerMinute'], {}, {});
    let during = '';
    let after = '';
    let walBytes = -1;
    const code = await withRun('sync', runSettings(config), silentLogger, async (ctx) => {
      const original = ctx.store.connection.run.bind(ctx.store.connection);
      // observe the limit while the sync writes: the first statement after the SET runs under it
      let sawSyncLimit = false;
      ctx.store.connection.run = (async (sql: string, ...rest: unknown[]) => {
        const result = await (original as (s: string, ...r: unknown[]) => Promise<unknown>)(sql, ...rest);
        if (!sawSyncLimit && /SET memory_limit = '64MB'/.test(sql)) {
          sawSyncLimit = true;
          during = String((await ctx.store.connection.runAndReadAll(`SELECT current_setting('memory_limit')`)).getRowsJS()[0]![0]);
        }
        return result;
      }) as typeof ctx.store.connection.run;
      await syncStage({ store: ctx.store, runId: ctx.runId, signal: ctx.signal, counters: ctx.counters }, syncSettings(config), silentLogger, { retryBaseMs: 5 });
      // what the sync wrote is checkpointed under its own limit: the WAL is empty before the checks
      walBytes = existsSync(`${db}.wal`) ? statSync(`${db}.wal`).size : 0;
      after = String((await ctx.store.connection.runAndReadAll(`SELECT current_setting('memory_limit')`)).getRowsJS()[0]![0]);
      return 0;
    }, { serviceUrl: sb.url, handleSignals: false });
    expect(code).toBe(0);
    expect(during).toBe(await rendered('64MB'));
    expect(after).toBe(await rendered('300MB'));
    expect(walBytes).toBe(0);
  });

  it("adds the setting to raise to DuckDB's out-of-memory error, and leaves other errors alone", () => {
    const oom = 'Out of Memory Error: could not allocate block of size 256.0 KiB (244.1 MiB/244.1 MiB used)';
    expect(memoryHint(oom, 256)).toBe(`${oom}; the run's DuckDB memory limit is 256 MB: raise it with --memory-mb / RECON_MEMORY_MB`);
    expect(memoryHint('Catalog Error: Table with name x does not exist', 256)).toBe('Catalog Error: Table with name x does not exist');
  });
});

describe("DuckDB's allocator", () => {
  it('is told to return freed pages at once, unless the user chose otherwise', () => {
    const env: NodeJS.ProcessEnv = {};
    returnFreedMemoryPromptly(env);
    expect(env[DUCKDB_ALLOCATOR_ENV]).toBe(DUCKDB_ALLOCATOR_CONF);
    const chosen: NodeJS.ProcessEnv = { [DUCKDB_ALLOCATOR_ENV]: 'dirty_decay_ms:5000' };
    returnFreedMemoryPromptly(chosen);
    expect(chosen[DUCKDB_ALLOCATOR_ENV]).toBe('dirty_decay_ms:5000');
  });
});

describe("the bin's node flags", () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  it('are on its shebang line, and node started through it runs with them (a young generation of two 4 MB semi-spaces)', () => {
    const bin = path.join(root, 'dist/pipelines/cli/main.js');
    expect(readFileSync(path.join(root, 'pipelines/cli/main.ts'), 'utf8').split('\n')[0]).toBe(`#!/usr/bin/env -S node ${NODE_FLAGS.join(' ')}`);
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe(`#!/usr/bin/env -S node ${NODE_FLAGS.join(' ')}`);
    // the kernel runs the file through its shebang (as npx does): node reports the flags it was given
    const shown = execFileSync(bin, ['--help'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(shown).toMatch(/recon/);
    const probe = execFileSync('/usr/bin/env', ['-S', `node ${NODE_FLAGS.join(' ')}`, '-e',
      `const v8 = require('node:v8'); console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)`], { encoding: 'utf8' });
    expect(Number(probe)).toBeLessThanOrEqual(8 * 1024 * 1024);
  });
});

describe('appendColumns', () => {
  it('writes every value exactly across reused chunks, nulls in one slice not leaking into the next', async () => {
    const db = dbPath();
    const instance = await DuckDBInstance.create(db);
    const c = await instance.connect();
    open.push(() => {
      c.closeSync();
      instance.closeSync();
    });
    await c.run('CREATE TABLE t (s VARCHAR, i INTEGER, b BIGINT)');
    const n = 2048 * 2 + 77; // three slices, the last one short
    // nulls only in the first slice: a chunk reused without resetting its validity would null the same rows later
    const s = Array.from({ length: n }, (_, r) => (r < 2048 && r % 7 === 0 ? null : `v${r}-${'é'.repeat(r % 5)}`));
    const i = Array.from({ length: n }, (_, r) => (r < 2048 && r % 11 === 0 ? null : r - 1000));
    const b = Array.from({ length: n }, (_, r) => (r < 2048 && r % 13 === 0 ? null : BigInt(r) * 10_000_000_000n));
    await appendColumns(c, 't', ['varchar', 'integer', 'bigint'], [s, i, b]);
    const rows = (await c.runAndReadAll('SELECT s, i, b FROM t')).getRowsJS();
    expect(rows.map((r) => r[0])).toEqual(s);
    expect(rows.map((r) => r[1])).toEqual(i);
    expect(rows.map((r) => r[2])).toEqual(b);
  });
});
