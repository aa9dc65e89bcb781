// The store records its schema version (the migrations applied, schema_migrations). A recon that finds
// one it does not have — a newer recon wrote the store — refuses with a sentence (exit 2) and changes
// nothing: not a row, not a view, not a byte of the file.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { openStore } from '../../../src/store/db.js';
import { runCliHere } from '../../helpers/in-process.js';
import { query, tempDir } from '../../helpers/recon.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function storePath(): string {
  const t = tempDir('recon-schema-version-');
  cleanups.push(t.cleanup);
  return path.join(t.dir, 'recon.duckdb');
}
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A store written by this recon, then marked as a newer recon would leave it: a migration this code lacks. */
async function storeFromTheFuture(version: number): Promise<string> {
  const db = storePath();
  (await openStore(db)).close();
  const instance = await DuckDBInstance.create(db);
  const c = await instance.connect();
  await c.run(`INSERT INTO schema_migrations VALUES (${version}, '${version}_from_a_newer_recon.sql', now())`);
  await c.run('DROP VIEW reconciliation'); // a view this recon would re-create on any open it went on with
  await c.run('CHECKPOINT');
  c.closeSync();
  instance.closeSync();
  return db;
}

describe('a store written by a newer recon', () => {
  it('is refused on open with a sentence naming both versions, and the file is not changed', async () => {
    const db = await storeFromTheFuture(999);
    const before = sha256(db);
    await expect(openStore(db)).rejects.toThrow(
      new RegExp(`^the store ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was written by a newer recon \\(schema version 999, `
        + '999_from_a_newer_recon\\.sql; this recon knows up to \\d+\\); it was left unchanged — run the recon that wrote it, or a newer one$'),
    );
    expect(sha256(db)).toBe(before);
    expect(await query(db, `SELECT count(*)::INT AS n FROM duckdb_views() WHERE view_name = 'reconciliation'`)).toEqual([{ n: 0 }]);
  });

  it('a schema change this recon lacks below its newest is refused too', async () => {
    const db = await storeFromTheFuture(47);
    await expect(openStore(db)).rejects.toThrow(/records schema change 47 \(47_from_a_newer_recon\.sql\) that this recon does not have/);
  });

  it('recon sync on it exits 2 with the sentence and records no run', async () => {
    const db = await storeFromTheFuture(999);
    const run = await runCliHere(['sync', '--api-url', 'http://127.0.0.1:9', '--api-key', 'k', '--db', db]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/was written by a newer recon \(schema version 999/);
    expect(await query(db, 'SELECT count(*)::INT AS n FROM runs')).toEqual([{ n: 0 }]);
  });

  it('a store this recon wrote opens again, and every version it records is one this recon has', async () => {
    const db = storePath();
    (await openStore(db)).close();
    (await openStore(db)).close();
    const [r] = await query(db, 'SELECT count(*)::INT AS n, count(DISTINCT version)::INT AS d FROM schema_migrations');
    expect(r!.n).toBe(r!.d);
    expect(r!.n).toBeGreaterThan(10);
  });
});
