// The one way recon writes several statements as a whole: BEGIN, the work, COMMIT; on any error a
// ROLLBACK (whose own failure never hides the first error) and the error goes on up. The store's DuckDB
// and the warehouse's PostgreSQL (src/warehouse/connection.ts) each say the three steps in their own SQL.
import type { DuckDBConnection } from '@duckdb/node-api';

export type TransactionStep = 'begin' | 'commit' | 'rollback';

/** `work` as one transaction of the database whose steps `step` runs. */
export async function asTransaction<T>(
  step: (s: TransactionStep) => Promise<unknown>,
  work: () => Promise<T>,
): Promise<T> {
  await step('begin');
  try {
    const out = await work();
    await step('commit');
    return out;
  } catch (err) {
    await step('rollback').catch(() => undefined);
    throw err;
  }
}

const DUCKDB_STEPS: Record<TransactionStep, string> = {
  begin: 'BEGIN TRANSACTION',
  commit: 'COMMIT',
  rollback: 'ROLLBACK',
};

export function inTransaction<T>(c: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  return asTransaction((s) => c.run(DUCKDB_STEPS[s]), work);
}
