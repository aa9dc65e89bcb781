// Whatever an accountant types into `recon sql`, recon's own files (the store, its WAL and lock, the
// published snapshot and its neighbours, the downloaded files) keep every byte, and no command that did
// not do its job exits 0 or leaves a partial file. Each statement and each --out below was tried by an
// adversarial user; the first six rows of each list changed or destroyed a file before recon guarded them.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nightBeforeAll } from '../helpers/nightly.js';
import { runCli } from '../helpers/child.js';
import { runCliHere } from '../helpers/in-process.js';
import { tempDir } from '../helpers/recon.js';

const night = nightBeforeAll({ seed: 23, disbursements: 24, payoutsPerDisbursement: 3, rateLimit: { limit: 1_000_000 } }, 0);
const published = () => path.join(night.dir, 'published', 'recon.duckdb');
let user: { dir: string; cleanup: () => void };
beforeAll(() => {
  user = tempDir('recon-user-');
});
afterAll(() => user.cleanup());

/** Every file of recon's under the night's folder (not the workbooks, which are the user's to keep), by content. */
function ownFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'reports') walk(p);
      } else if (e.isFile()) out[path.relative(night.dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(night.dir);
  return out;
}

/** `recon sql` in this process (a real child each is a second of CPU); the bin itself is tried once below. */
const sqlHere = (args: string[]) => runCliHere(['sql', '--db', night.db, ...args]);

const CHUNK_LATE = "SELECT i, CASE WHEN i < 100000 THEN i ELSE CAST('x' || i AS INTEGER) END AS v FROM range(200000) t(i)";

describe('recon sql against hostile statements', () => {
  it('refuses every statement that writes, loads, attaches, configures or changes, and no own file changes', async () => {
    const before = ownFiles();
    const p = published();
    const q = (s: string) => s.replaceAll("'", "''");
    const statements = [
      `COPY (SELECT 'x' AS x) TO '${p}' (FORMAT csv, USE_TMP_FILE false)`,
      `COPY (SELECT 1) TO '${p}.wal.recovery' (FORMAT csv)`,
      `COPY (SELECT 1) TO '${p}.wal'`,
      `COPY (SELECT 1 AS x) TO '${p}.wal.checkpoint' (FORMAT parquet)`,
      `COPY (SELECT 1) TO '${p}.tmp/x.csv'`,
      `COPY disbursements TO '${night.db}' (FORMAT csv)`,
      `COPY disbursements FROM '${night.db}'`,
      `EXPORT DATABASE '${path.dirname(p)}/exp'`,
      `EXPORT DATABASE '${p}.tmp' (FORMAT parquet)`,
      'COPY FROM DATABASE recon TO memory',
      `ATTACH '${night.db}' AS live (READ_WRITE)`,
      `ATTACH '${night.db}' AS live (READ_ONLY)`,
      `ATTACH '${p}' AS again`,
      "ATTACH ':memory:' AS scratch",
      'DETACH recon',
      'USE memory',
      'LOAD json',
      'INSTALL httpfs',
      'UPDATE EXTENSIONS',
      'SET enable_external_access = true',
      "SET temp_directory = '/tmp'",
      'SET VARIABLE x = 1',
      'PRAGMA threads = 64',
      'CALL pragma_version()',
      'CHECKPOINT',
      'VACUUM',
      'BEGIN TRANSACTION',
      'INSERT INTO findings SELECT * FROM findings',
      "UPDATE findings SET state = 'resolved'",
      'DELETE FROM findings',
      'DROP TABLE findings',
      'CREATE TABLE mine AS SELECT 1 AS x',
      'CREATE TEMP TABLE mine AS SELECT 1 AS x',
      "CREATE SECRET (TYPE s3, KEY_ID 'k', SECRET 's')",
      `SELECT * FROM read_csv('${night.db}')`,
      `SELECT * FROM read_text('${p}')`,
      "SELECT * FROM read_blob('/etc/hostname')",
      `SELECT * FROM glob('${night.dir}/*')`,
      `SELECT * FROM query('COPY (SELECT 1) TO ''${q(p)}''')`,
      `SELECT 1; COPY (SELECT 1) TO '${p}'`,
      'SELEC broken',
    ];
    expect(statements.length).toBeGreaterThanOrEqual(40);
    for (const s of statements) {
      const r = await sqlHere([s]);
      expect(r.code, `${s}\n${r.stderr}`).toBe(2);
      expect(r.stdout, s).toBe('');
      expect(r.stderr.trim().split('\n'), s).toHaveLength(1); // one line, no stack
      expect(r.stderr, s).toMatch(/^recon sql: /); // refused by the command, not failed on the way to it
      expect(r.stderr, s).not.toMatch(/\n\s+at /);
    }
    expect(ownFiles()).toEqual(before);
    expect(existsSync(`${p}.wal.recovery`)).toBe(false);
    expect(existsSync(path.join(path.dirname(p), 'exp'))).toBe(false);
  });

  it('says why a statement is refused', async () => {
    const cases: Array<[string, RegExp]> = [
      [`COPY (SELECT 1) TO '${published()}.wal.recovery'`, /COPY and EXPORT are refused: recon sql writes only the file --out names/],
      ['LOAD json', /INSTALL and LOAD are refused/],
      [`ATTACH '${night.db}' AS live`, /ATTACH and DETACH are refused|disabled by configuration/],
      ['PRAGMA threads = 64', /SET, PRAGMA and CALL are refused/],
      ['CREATE TEMP TABLE t AS SELECT 1', /CREATE is refused: one statement runs per call/],
      ['DELETE FROM findings', /DELETE is refused: the snapshot is read-only/],
      ['SELEC broken', /^recon sql: query failed: .*syntax error at or near "SELEC"/],
    ];
    for (const [s, why] of cases) {
      const r = await sqlHere([s]);
      expect(r.code).toBe(2);
      expect(r.stderr, s).toMatch(why);
    }
  });

  it('fails a query whose error comes after its first chunk, in every format, and writes nothing', async () => {
    const keep = path.join(user.dir, 'part.csv');
    writeFileSync(keep, 'yesterday\n');
    for (const format of ['table', 'csv', 'json', 'xlsx']) {
      const out = format === 'table' ? [] : ['--format', format, '--out', format === 'csv' ? keep : path.join(user.dir, `part.${format}`)];
      const r = await sqlHere([...out, CHUNK_LATE]);
      expect(r.code, `${format}: ${r.stderr}`).toBe(2);
      expect(r.stdout, format).toBe('');
      expect(r.stderr).toMatch(/query failed: Conversion Error: Could not convert string 'x100000'/);
      expect(r.stderr).not.toMatch(/rows →/);
    }
    expect(readFileSync(keep, 'utf8')).toBe('yesterday\n');
    expect(existsSync(path.join(user.dir, 'part.json'))).toBe(false);
    expect(existsSync(path.join(user.dir, 'part.xlsx'))).toBe(false);
    expect(readdirSync(user.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('stops a runaway query at --query-timeout-s with a sentence, and a query past --max-temp-mb', async () => {
    const slow = await sqlHere(['--query-timeout-s', '1', 'SELECT count(*) FROM range(100000000000) a(i), range(10) b(j)']);
    expect(slow.code).toBe(2);
    expect(slow.stderr).toMatch(/the query ran longer than 1 s and was stopped; narrow it .* --query-timeout-s/);
    const big = await sqlHere(['--memory-mb', '64', '--max-temp-mb', '16', '--format', 'csv', '--out', path.join(user.dir, 'big.csv'),
      "SELECT i, md5(CAST(i AS VARCHAR)) || md5(CAST(i + 1 AS VARCHAR)) AS s FROM range(3000000) t(i) ORDER BY s"]);
    expect(big.code, big.stderr).toBe(2);
    expect(big.stderr).toMatch(/temporary disk space|max_temp_directory_size/);
    expect(existsSync(path.join(user.dir, 'big.csv'))).toBe(false);
    // the session's spill folder went with it
    expect(existsSync(`${published()}.tmp`) ? readdirSync(`${published()}.tmp`) : []).toEqual([]);
  });
});

describe('recon sql --out', () => {
  it('refuses every path that resolves to one of recon\'s own files (symlinks, .., the WAL, files/) and changes none', async () => {
    const before = ownFiles();
    const p = published();
    const blob = readdirSync(path.join(night.dir, 'files'), { recursive: true, withFileTypes: true }).find((e) => e.isFile())!;
    const links = path.join(user.dir, 'links');
    mkdirSync(links, { recursive: true });
    symlinkSync(night.db, path.join(links, 'to-store.csv'));
    symlinkSync(p, path.join(links, 'to-snapshot.csv'));
    symlinkSync(`${night.db}.wal`, path.join(links, 'dangling-to-wal.csv'));
    symlinkSync(night.dir, path.join(links, 'folder'));
    const outs = [
      night.db,
      `${night.db}.wal`,
      `${night.db}.lock`,
      `${night.db}.tmp/spill.csv`,
      p,
      `${p}.wal.recovery`,
      `${p}.tmp/x.csv`,
      path.join(blob.parentPath, blob.name),
      path.join(night.dir, 'files', 'new.csv'),
      path.join(night.dir, 'published', '..', 'recon.duckdb'),
      path.join(night.dir, '.', 'recon.duckdb'),
      path.join(links, 'to-store.csv'),
      path.join(links, 'to-snapshot.csv'),
      path.join(links, 'dangling-to-wal.csv'),
      path.join(links, 'folder', 'recon.duckdb'),
      path.join(links, 'folder', 'published', 'recon.duckdb'),
    ];
    for (const out of outs) {
      for (const format of ['csv', 'xlsx']) {
        const r = await sqlHere(['--out', out, '--format', format, 'SELECT count(*) AS n FROM disbursements']);
        expect(r.code, `${out}: ${r.stderr}`).toBe(2);
        expect(r.stderr, out).toMatch(/recon never writes over its own files/);
      }
    }
    // and as the bin, in a process of its own
    const child = await runCli(['sql', '--db', night.db, '--out', night.db, 'SELECT count(*) AS n FROM disbursements']);
    expect(child.code).toBe(2);
    expect(child.stderr.trim().split('\n')).toHaveLength(1);
    expect(child.stderr).toMatch(/recon never writes over its own files/);
    expect(ownFiles()).toEqual(before);
    expect(lstatSync(path.join(links, 'to-store.csv')).isSymbolicLink()).toBe(true);
    expect(existsSync(`${night.db}.wal`)).toBe(before[`recon.duckdb.wal`] !== undefined);
  });

  it('leaves an existing file as it was when the query fails, and replaces it whole when it succeeds', async () => {
    const keep = path.join(user.dir, 'keep.xlsx');
    writeFileSync(keep, 'not really a workbook, but mine');
    const broken = await sqlHere(['--out', keep, 'SELEC broken']);
    expect(broken.code).toBe(2);
    expect(readFileSync(keep, 'utf8')).toBe('not really a workbook, but mine');
    const ok = await sqlHere(['--out', keep, 'SELECT count(*) AS n FROM disbursements']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(/1 rows → /);
    expect(readFileSync(keep).subarray(0, 2).toString()).toBe('PK'); // a zip: the workbook
    expect(readdirSync(user.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a folder that cannot be created at once, with the reason (not a loop)', async () => {
    // a child: a folder walk that never returned would hang this process with it
    const r = await runCli(['sql', '--db', night.db, '--out', '/proc/recon-no-such/q.csv', 'SELECT 1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write to \/proc\/recon-no-such: .*; check --out/);
  });
});

describe('recon sql --published', () => {
  it('refuses the live store (reading it would take its lock from the nightly run)', async () => {
    const r = await sqlHere(['--published', night.db, 'SELECT 1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a live store, not a published snapshot/);
    const link = path.join(user.dir, 'store-link.duckdb');
    if (!existsSync(link)) symlinkSync(night.db, link);
    const viaLink = await sqlHere(['--published', link, 'SELECT 1']);
    expect(viaLink.code).toBe(2);
    expect(viaLink.stderr).toMatch(/is a live store/);
  });

  it('reads the snapshot with the run that published it recorded as succeeded', async () => {
    const r = await sqlHere(['--format', 'json', "SELECT status FROM runs WHERE command = 'run'"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ status: 'succeeded' }]);
    expect(statSync(published()).size).toBeGreaterThan(0);
  });
});
