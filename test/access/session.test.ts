// the accountants' SQL session cannot leave its snapshot. Each statement kind an attacker
// (or a curious accountant) would try is run through the real `recon sql` against a published snapshot,
// with the live store beside it (more in hostile-session.test.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { query } from '../helpers/recon.js';
import { nightBeforeAll } from '../helpers/nightly.js';
import { runCliHere } from '../helpers/in-process.js';

const night = nightBeforeAll({ seed: 22, disbursements: 30, payoutsPerDisbursement: 3, rateLimit: { limit: 1_000_000 }, anomalies: { plant: [{ index: 20, kind: 'total_off_by_one' }] } }, 1);

const sql = (q: string) => runCliHere(['sql', '--db', night.db, q]);

describe('recon sql is a closed, read-only session on the snapshot', () => {
  it('refuses to ATTACH the live store (to change findings, or to hold its lock)', async () => {
    const r = await sql(`ATTACH '${night.db}' AS live (READ_WRITE)`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ATTACH and DETACH are refused|disabled by configuration/);
    const r2 = await sql(`ATTACH '${night.db}' AS live (READ_ONLY)`);
    expect(r2.code).toBe(2);
    expect(await query(night.db, "SELECT count(*)::INT AS n FROM findings WHERE state = 'acknowledged'")).toEqual([{ n: 0 }]);
  });

  it('refuses COPY … TO, EXPORT DATABASE and every file reader', async () => {
    const target = path.join(night.dir, 'leak.csv');
    for (const q of [`COPY (SELECT 1) TO '${target}'`, `EXPORT DATABASE '${path.join(night.dir, 'exp')}'`, "SELECT * FROM read_csv('/etc/passwd')",
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

  it('still answers queries, WITH included; a temporary table is refused (one statement per call: it would be gone before use)', async () => {
    expect((await sql('SELECT count(*) AS n FROM reconciliation')).code).toBe(0);
    expect((await sql('WITH mine AS (SELECT 1 AS x) SELECT * FROM mine')).code).toBe(0);
    const r = await sql('CREATE TEMP TABLE mine AS SELECT 1 AS x');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/write it as WITH name AS/);
  });
});
