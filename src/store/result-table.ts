// An accountant's query computed whole into a temporary table before a row of it is written: a streamed
// DuckDB result that fails after its first chunk simply ends (@duckdb/node-api's fetch returns no chunk and
// does not expose the error), so the rows are materialised first — any error surfaces there — then read
// back and counted against the table (src/access/query.ts).
import type { DuckDBConnection, DuckDBResult } from '@duckdb/node-api';

const RESULT_TABLE = '__recon_result';

/**
 * CREATE TEMP TABLE … AS <sql>, run by `execute`; false when the statement cannot be a table's source (SHOW, DESCRIBE,
 * PRAGMA …).
 */
export async function materialiseResult(
  c: DuckDBConnection,
  sql: string,
  execute: <T>(step: Promise<T>) => Promise<T>,
): Promise<boolean> {
  const wrapped = `CREATE TEMP TABLE ${RESULT_TABLE} AS ${sql}`;
  const extracted = await c.extractStatements(wrapped).catch(() => null);
  if (extracted === null || extracted.count !== 1) return false;
  await execute(c.run(wrapped));
  return true;
}

/** The rows the materialised result holds. */
export async function resultCount(c: DuckDBConnection): Promise<number> {
  return Number((await c.runAndReadAll(`SELECT count(*) FROM temp.main.${RESULT_TABLE}`)).getRowsJS()[0]?.[0] ?? 0);
}

/** The materialised result, streamed in insertion order. */
export function streamResult(c: DuckDBConnection): Promise<DuckDBResult> {
  return c.stream(`SELECT * FROM temp.main.${RESULT_TABLE}`);
}

/** Bytes DuckDB's spill files hold now (its own cap does not cover a temporary table's blocks). */
export async function tempFileBytes(c: DuckDBConnection): Promise<number> {
  return Number(
    (await c.runAndReadAll('SELECT coalesce(sum(size), 0) FROM duckdb_temporary_files()')).getRowsJS()[0]?.[0] ?? 0,
  );
}
