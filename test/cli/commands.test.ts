import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { plantEveryKind, startSandbox } from '../../sandbox/index.js';
import { query, tempDir } from '../helpers/recon.js';
import { nightBeforeAll } from '../helpers/nightly.js';
import { logCount, startCli, waitFor } from '../helpers/child.js';
import { runCliHere, startCliHere } from '../helpers/in-process.js';
import { acquireLock } from '../../src/ops/lock.js';

const night = nightBeforeAll({ seed: 31, disbursements: 120, payoutsPerDisbursement: 6, rateLimit: { limit: 1_000_000 }, anomalies: { plant: plantEveryKind(12) } }, 1);

describe('recon sql', () => {
  it('answers from the published snapshot as a table, CSV and JSON', async () => {
    const table = await runCliHere(['sql', '--db', night.db, "SELECT status, count(*) AS n FROM reconciliation GROUP BY ALL ORDER BY status"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/status\s+│ n/);
    expect(table.stdout).toMatch(/reconciled/);
    const csv = await runCliHere(['sql', '--db', night.db, '--format', 'csv', "SELECT '=HYPERLINK(\"http://x\",\"y\")' AS evil, 1 AS n"]);
    expect(csv.stdout.split('\r\n')[1]).toBe(`"'=HYPERLINK(""http://x"",""y"")",1`);
    const json = await runCliHere(['sql', '--db', night.db, '--format', 'json', 'SELECT count(*) AS n FROM disbursements']);
    expect(JSON.parse(json.stdout)).toEqual([{ n: 120 }]);
  });

  it('reads the query from stdin-less arguments only and refuses writes on the snapshot', async () => {
    const write = await runCliHere(['sql', '--db', night.db, 'DELETE FROM payouts']);
    expect(write.code).toBe(2);
    expect(write.stderr).toMatch(/read-only|read only/i);
  });

  it('writes an xlsx result with --out', async () => {
    const out = path.join(night.dir, 'q.xlsx');
    const r = await runCliHere(['sql', '--db', night.db, '--format', 'xlsx', '--out', out, 'SELECT * FROM monthly_summary']);
    expect(r.code).toBe(0);
    expect(existsSync(out)).toBe(true);
  });
});

describe('recon check and recon report', () => {
  it('re-runs the checks (findings now open, exit 1) and writes that run\'s workbook', async () => {
    const check = await runCliHere(['check', '--db', night.db]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/total_identity\s+error\s+\d+/);
    expect(check.stdout).toMatch(/0 new, \d+ open/);
    // nothing written since the night's check: every open finding carried forward, the same as a full check
    expect(check.stdout).toMatch(
      /checked what changed: 0 disbursements and \d+ keys re-checked, \d+ open findings carried forward unchanged/);
    const full = await runCliHere(['check', '--full', '--db', night.db]);
    expect(full.stdout).toMatch(/checked the whole store: asked for \(--full\)/);
    const perCheck = (out: string) => out.split('\n').filter((l) => /^[a-z_]+\s+(error|warning)\s+\d+$/.test(l));
    expect(perCheck(full.stdout)).toEqual(perCheck(check.stdout));
    const report = await runCliHere(['report', '--db', night.db, '--reports', path.join(night.dir, 'reports')]);
    expect(report.code).toBe(1);
    expect(existsSync(report.stdout.trim())).toBe(true);
  });
});

describe('recon ack', () => {
  it('acknowledges a finding by key, and refuses an unknown key or a missing note', async () => {
    const [f] = await query(night.db, `SELECT finding_key FROM findings WHERE state = 'open' ORDER BY finding_key LIMIT 1`);
    const ok = await runCliHere(['ack', String(f!.finding_key), '--note', 'agreed with the provider', '--by', 'ana', '--db', night.db]);
    expect(ok.code).toBe(0);
    const [after] = await query(night.db, `SELECT state, ack_by, ack_note FROM findings WHERE finding_key = '${f!.finding_key}'`);
    expect(after).toEqual({ state: 'acknowledged', ack_by: 'ana', ack_note: 'agreed with the provider' });
    expect((await runCliHere(['ack', 'nope', '--note', 'x', '--by', 'ana', '--db', night.db])).code).toBe(2);
    expect((await runCliHere(['ack', String(f!.finding_key), '--by', 'ana', '--db', night.db])).code).toBe(2);
  });

  it('never takes the OS user for --by: without --by or RECON_ACK_BY it is refused, with the variable it is used', async () => {
    const [f] = await query(night.db, `SELECT finding_key FROM findings WHERE state = 'open' ORDER BY finding_key LIMIT 1 OFFSET 1`);
    const key = String(f!.finding_key);
    const none = await runCliHere(['ack', key, '--note', 'x', '--db', night.db], { RECON_ACK_BY: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/who acknowledges must be named: pass --by NAME, or set RECON_ACK_BY/);
    const byEnv = await runCliHere(['ack', key, '--note', 'first', '--db', night.db], { RECON_ACK_BY: 'carla' });
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(byEnv.stdout).toMatch(/by carla; 1 entry in its history/);
    // a second note is added to the history, then a withdrawal; nothing is overwritten
    expect((await runCliHere(['ack', key, '--note', 'second', '--by', 'dan', '--db', night.db])).stdout).toMatch(/2 entries/);
    const w = await runCliHere(['ack', key, '--withdraw', '--note', 'not agreed after all', '--by', 'ed', '--db', night.db]);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stdout).toMatch(/withdrew the acknowledgement of .* by ed; 3 entries/);
    expect(await query(night.db, `SELECT seq, action, ack_by, note FROM acknowledgements WHERE finding_key = '${key}' ORDER BY seq`)).toEqual([
      { seq: 1, action: 'ack', ack_by: 'carla', note: 'first' },
      { seq: 2, action: 'ack', ack_by: 'dan', note: 'second' },
      { seq: 3, action: 'withdraw', ack_by: 'ed', note: 'not agreed after all' },
    ]);
    const again = await runCliHere(['ack', key, '--withdraw', '--note', 'x', '--by', 'ed', '--db', night.db]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/not acknowledged now/);
  }, 240_000);

  it('waits for a run that holds the lock up to --wait, and exits 3 without it', async () => {
    const [f] = await query(night.db, `SELECT finding_key FROM findings WHERE state = 'open' ORDER BY finding_key LIMIT 1 OFFSET 2`);
    const key = String(f!.finding_key);
    const lock = await acquireLock(`${night.db}.lock`, { command: 'recon run' });
    try {
      const refused = await runCliHere(['ack', key, '--note', 'x', '--by', 'ana', '--db', night.db]);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/holds the lock/);
      const waiting = startCliHere(['ack', key, '--note', 'after the run', '--by', 'ana', '--wait', '120', '--db', night.db]);
      expect(await waitFor(() => /waiting up to 120 s/.test(waiting.stderr()), 30_000)).toBe(true);
      await lock.release();
      const done = await waiting.done;
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toMatch(/acknowledged/);
    } finally {
      await lock.release();
    }
  }, 180_000);
});

describe('recon export --parquet', () => {
  it('writes every table and the finance views by month, read back through the manifest', async () => {
    const out = path.join(night.dir, 'parquet');
    const r = await runCliHere(['export', '--db', night.db, '--parquet', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/readers follow .*manifest\.json/);
    expect(readdirSync(path.join(out, 'payouts')).some((n) => n.startsWith('month='))).toBe(true);
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as
      { objects: Record<string, { files: Array<{ path: string }> }> };
    const files = manifest.objects.payouts!.files.map((f) => `'${path.join(out, f.path)}'`).join(', ');
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    const n = (await c.runAndReadAll(`SELECT count(*) FROM read_parquet([${files}], hive_partitioning = true)`))
      .getRowsJS()[0]![0];
    c.closeSync();
    instance.closeSync();
    const [stored] = await query(night.db, 'SELECT count(*) AS n FROM payouts');
    expect(Number(n)).toBe(Number(stored!.n));
    for (const v of ['reconciliation', 'open_exceptions', 'monthly_summary', 'payment_lines']) {
      expect(manifest.objects[v]?.files.length, v).toBeGreaterThan(0);
      expect(existsSync(path.join(out, v))).toBe(true);
    }
  });
});

describe('signals', () => {
  it('SIGTERM finishes the disbursements in progress, records the run as interrupted and exits 2', async () => {
    const slow = await startSandbox({ seed: 32, disbursements: 80, payoutsPerDisbursement: 6, latencyMs: [30, 60], rateLimit: { limit: 1_000_000 } });
    const t = tempDir();
    try {
      const file = path.join(t.dir, 'recon.duckdb');
      const log = path.join(t.dir, 'sync.log');
      const { child, done } = startCli(['sync', '--api-url', slow.url, '--api-key', slow.apiKey, '--db', file, '--log-file', log,
        '--rate-per-minute', '60000', '--sample-budget', '0', '--concurrency', '2']);
      await waitFor(() => logCount(log, 'disbursement read') >= 3, 20_000);
      child.kill('SIGTERM');
      const ended = await done;
      expect(ended.code).toBe(2);
      const runs = await query(file, 'SELECT status, error FROM runs');
      expect(runs).toEqual([{ status: 'interrupted', error: 'stopped by a signal' }]);
      const read = logCount(log, 'disbursement read');
      const [n] = await query(file, 'SELECT count(*) AS n FROM disbursements');
      expect(Number(n!.n)).toBe(read); // every disbursement read was committed, none half
      expect(read).toBeLessThan(80);
      expect(readFileSync(log, 'utf8')).toMatch(/stopping: finishing the disbursements in progress/);
    } finally {
      await slow.close();
      t.cleanup();
    }
  });
});
