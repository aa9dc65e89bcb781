// Which check files were validated against the store as it is now (sql/schema/041_check_contracts.sql):
// a check is bound again only when its SQL, an SQL object or the schema changed.
import { createHash } from 'node:crypto';
import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { objectsDigest } from './objects.js';

/** The hash a check's validation is kept under: its SQL and everything it may read. */
export async function contractHashes(c: DuckDBConnection, sqls: readonly string[]): Promise<string[]> {
  const digest = await objectsDigest(c);
  return sqls.map((sql) => createHash('sha256').update(digest).update('\0').update(sql).digest('hex'));
}

/** Those of `hashes` validated before. */
export async function validatedContracts(c: DuckDBConnection, hashes: readonly string[]): Promise<Set<string>> {
  const rows = (
    await c.runAndReadAll(
      'SELECT contract_hash FROM check_contracts WHERE list_contains($1::VARCHAR[], contract_hash)',
      [listValue([...hashes])],
    )
  ).getRows();
  return new Set(rows.map((r) => String(r[0])));
}

export async function recordValidated(c: DuckDBConnection, hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  await c.run('INSERT OR IGNORE INTO check_contracts SELECT unnest($1::VARCHAR[]), now()', [listValue([...hashes])]);
}
