// a folder that cannot be written ends the command with exit 2, the path and the
// reason, the lock released and nothing claimed; a run that fails while writing its workbook leaves its
// findings "new" for the next workbook, and its message names the workbook, not the store.
// The tests run as root, which ignores permissions, so unwritable places are ones root cannot write
// either: a folder under /proc, a path below a regular file, a folder standing where a file must go.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { nightlyOnce } from '../helpers/nightly.js';
import { query, tempDir } from '../helpers/recon.js';
import { ROOT, runCli } from '../helpers/child.js';
import { runCliHere } from '../helpers/in-process.js';

let sb: Sandbox;
let t: { dir: string; cleanup: () => void };
const db = () => path.join(t.dir, 'recon.duckdb');
const reports = () => path.join(t.dir, 'reports');
const lockGone = () => !existsSync(`${db()}.lock`);

beforeAll(async () => {
  sb = await startSandbox({ seed: 47, disbursements: 20, payoutsPerDisbursement: 3, rateLimit: { limit: 1_000_000 },
    anomalies: { plant: [{ index: 3, kind: 'total_off_by_one' }, { index: 9, kind: 'total_off_by_one' }] } });
  t = tempDir('recon-unwritable-');
});
afterAll(async () => {
  await sb.close();
  t.cleanup();
});

describe('a run whose workbook cannot be written', () => {
  it('exits 2 naming the workbook, and its findings are still new in the next workbook', async () => {
    // recon-latest.xlsx cannot be replaced: a folder with a file in it stands there
    mkdirSync(path.join(reports(), 'recon-latest.xlsx'), { recursive: true });
    writeFileSync(path.join(reports(), 'recon-latest.xlsx', 'in-the-way'), '');
    const failed = await nightlyOnce(sb, t.dir);
    expect(failed.outcome.code).toBe(2);
    const [run] = await query(db(), `SELECT status, error FROM runs WHERE command = 'run'`);
    expect(run).toMatchObject({ status: 'failed' });
    expect(String(run!.error)).toMatch(/cannot write .*recon-latest\.xlsx: /);
    expect(String(run!.error)).toMatch(/--reports \/ RECON_REPORTS_DIR/);
    expect(String(run!.error)).not.toMatch(/where the store/);
    const seen = await query(db(), `SELECT count(*)::INT AS n FROM exceptions WHERE status = 'new'`);
    expect(seen[0]!.n).toBeGreaterThanOrEqual(2);

    rmSync(path.join(reports(), 'recon-latest.xlsx'), { recursive: true });
    const next = await nightlyOnce(sb, t.dir);
    expect(next.outcome.code).toBe(1);
    // nobody was shown them: still new, not "still open"
    expect(next.outcome.checks!.byStatus).toMatchObject({ new: seen[0]!.n, open: 0 });
    const after = await nightlyOnce(sb, t.dir);
    expect(after.outcome.checks!.byStatus).toMatchObject({ new: 0, open: seen[0]!.n });
  });

  // a real child for the two "instead of spinning" cases: a folder walk that never returns would hang this
  // process with it, and the test must fail instead
  it('stops at once when the log\'s folder or the store\'s cannot be created (under /proc), instead of spinning', async () => {
    const log = await runCli(['run', '--api-url', sb.url, '--api-key', sb.apiKey, '--db', db(), '--reports', reports(), '--log-file', '/proc/recon-log/run.log']);
    expect(log.code).toBe(2);
    expect(log.stderr).toMatch(/cannot write the log \/proc\/recon-log\/run\.log: .*--log-file \/ RECON_LOG_FILE/);
    const store = await runCli(['run', '--api-url', sb.url, '--api-key', sb.apiKey, '--db', '/proc/recon-db/recon.duckdb', '--reports', reports()]);
    expect(store.code).toBe(2);
    expect(store.stderr).toMatch(/cannot create the store \/proc\/recon-db\/recon\.duckdb .*--db \/ RECON_DB/);
    expect(lockGone()).toBe(true);
  });

  it('logs times as ISO 8601, not epoch milliseconds', async () => {
    const file = path.join(t.dir, 'logs', 'sync.log');
    const r = await runCliHere(['sync', '--api-url', sb.url, '--api-key', sb.apiKey, '--db', path.join(t.dir, 'iso', 'recon.duckdb'), '--log-file', file, '--rate-per-minute', '60000']);
    expect(r.code, r.stderr).toBe(0);
    const first = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as { time: unknown };
    expect(first.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('stops at once when --reports cannot be created (a folder under /proc), instead of spinning', async () => {
    const r = await runCli(['run', '--api-url', sb.url, '--api-key', sb.apiKey, '--db', db(), '--reports', '/proc/recon-rep']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write to \/proc\/recon-rep: .*check --reports \/ RECON_REPORTS_DIR/);
    expect(lockGone()).toBe(true);
  });
});

describe('commands whose output folder cannot be written', () => {
  const below = () => path.join(t.dir, 'a-file', 'reports'); // ENOTDIR
  beforeAll(() => writeFileSync(path.join(t.dir, 'a-file'), 'not a folder'));

  for (const [name, where] of [['a folder under /proc', '/proc/self'], ['a path below a regular file', '']] as const) {
    it(`report exits 2 with the path and the reason, lock released (${name})`, async () => {
      const dir = where || below();
      const r = await runCliHere(['report', '--db', db(), '--reports', dir]);
      expect(r.code, r.stderr).toBe(2);
      // the JSON log (no terminal here) is on stderr too; the message itself is its last line, with no stack
      const message = r.stderr.trim().split('\n').at(-1)!;
      expect(message).toMatch(new RegExp(`^recon report: cannot write ${dir.replaceAll('/', '\\/')}.*: .*; check --reports`));
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(lockGone()).toBe(true);
    });

    it(`close exits 2, the month not recorded closed, lock released (${name})`, async () => {
      const month = String((await query(db(), `SELECT strftime(max(delivered_at), '%Y-%m') AS m FROM disbursements`))[0]!.m);
      const r = await runCliHere(['close', '--month', month, '--db', db(), '--reports', where || below()]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/cannot write /);
      expect(await query(db(), 'SELECT count(*)::INT AS n FROM closes')).toEqual([{ n: 0 }]);
      expect(lockGone()).toBe(true);
    });
  }

  it('export exits 2 on one line, and a second export replaces the first whole', async () => {
    const r = await runCliHere(['export', '--db', db(), '--parquet', '/proc/self/recon-export']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/cannot write to \/proc\/self\/recon-export: /);
    const out = path.join(t.dir, 'parquet');
    for (let i = 0; i < 2; i++) {
      const ok = await runCliHere(['export', '--db', db(), '--parquet', out]);
      expect(ok.code, ok.stderr).toBe(0);
    }
    expect(readdirSync(out).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(readdirSync(out)).toContain('payouts');
  });

  it('ack exits 2 when the snapshot cannot be published, saying where, lock released', async () => {
    const [f] = await query(db(), `SELECT finding_key FROM findings WHERE state = 'open' LIMIT 1`);
    const r = await runCliHere(['ack', String(f!.finding_key), '--note', 'ok', '--by', 'ana', '--db', db(), '--published', '/proc/self/snap/recon.duckdb']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/could not publish the snapshot to \/proc\/self\/snap\/recon\.duckdb/);
    expect(lockGone()).toBe(true);
  });
});

describe('the failure note of a run whose store cannot record its own failure', () => {
  it('is whole or absent: on a disk that takes no byte (ulimit -f 0) no empty note is left beside the store', async () => {
    const { spawnSync } = await import('node:child_process');
    const note = path.join(t.dir, 'full', 'recon.duckdb');
    mkdirSync(path.dirname(note), { recursive: true });
    const script = `import('${path.join(ROOT, 'dist/src/store/runs.js')}').then((m) => m.noteFailure('${note}', 'r1', 'disk full'))`;
    const r = spawnSync('bash', ['-c', `ulimit -f 0 && exec "$0" -e "$1"`, process.execPath, script]);
    expect(r.status, String(r.stderr)).toBe(0);
    expect(readdirSync(path.dirname(note))).toEqual([]);
    // with room, the note is written whole
    const ok = spawnSync(process.execPath, ['-e', script]);
    expect(ok.status).toBe(0);
    expect(readdirSync(path.dirname(note))).toEqual(['recon.duckdb.failed-run.json']);
  });
});
