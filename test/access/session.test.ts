// #12 case 2: the accountants' SQL session cannot leave its snapshot. Each statement kind an attacker
// (or a curious accountant) would try is run through the real `recon sql` against a published snapshot,
// with the live store beside it; temporary tables stay possible.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { query, tempDir } from '../helpers/recon.js';
import { nightlyOnce } from '../helpers/nightly.js';
import { runCli } from '../helpers/child.js';

let sb: Sandbox;
let d: string;
let cleanup: () => void;
let db: string;
beforeAll(async () => {
  sb = await startSandbox({ seed: 22, disbursements: 30, payoutsPerDisbursement: 3, rateLimit: { limit: 1_000_000 }, anomalies: { plant: [{ index: 20, kind: 'total_off_by_one' }] } });
  const t = tempDir();
  d = t.dir;
  cleanup = t.cleanup;
  db = path.join(d, 'recon.duckdb');
  expect((await nightlyOnce(sb, d)).outcome.code).toBe(1);
}, 120_000);
afterAll(async () => {
  await sb.close();
  cleanup();
});

const sql = (q: string) => runCli(['sql', '--db', db, q]);

describe('recon sql is a closed, read-only session on the snapshot', () => {
  it('refuses to ATTACH the live store (to change findings, or to hold its lock)', async () => {
    const r = await sql(`ATTACH '${db}' AS live (READ_WRITE)`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/disabled by configuration|file system operations are disabled/);
    const r2 = await sql(`ATTACH '${db}' AS live (READ_ONLY)`);
    expect(r2.code).toBe(2);
    expect(await query(db, "SELECT count(*)::INT AS n FROM findings WHERE state = 'acknowledged'")).toEqual([{ n: 0 }]);
  });

  it('refuses COPY … TO, EXPORT DATABASE and every file reader', async () => {
    const target = path.join(d, 'leak.csv');
    for (const q of [`COPY (SELECT 1) TO '${target}'`, `EXPORT DATABASE '${path.join(d, 'exp')}'`, "SELECT * FROM read_csv('/etc/passwd')",
      "SELECT * FROM read_text('/etc/passwd')", "SELECT * FROM read_json('/etc/hostname')", "SELECT * FROM read_parquet('/tmp/x.parquet')"]) {
      const r = await sql(q);
      expect(r.code, q).toBe(2);
      expect(r.stdout, q).toBe('');
    }
    expect(existsSync(target)).toBe(false);
  });

  it('refuses INSTALL, LOAD and any SET or PRAGMA that changes the configuration', async () => {
    for (const q of ['INSTALL httpfs', 'LOAD httpfs', "SET enable_external_access = true", "SET memory_limit = '8GB'", "PRAGMA threads = 64"]) {
      const r = await sql(q);
      expect(r.code, q).toBe(2);
    }
  });

  it('runs one statement per call', async () => {
    const r = await sql('SELECT 1; SELECT 2');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/one statement per call, got 2/);
  });

  it('still answers queries and allows temporary tables (in memory, gone with the session)', async () => {
    expect((await sql('SELECT count(*) AS n FROM reconciliation')).code).toBe(0);
    const r = await sql('CREATE TEMP TABLE mine AS SELECT 1 AS x');
    expect(r.code, r.stderr).toBe(0);
  });
});
