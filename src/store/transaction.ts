// The one way recon writes several statements as a whole: BEGIN, the work, COMMIT; on any error a
// ROLLBACK (whose own failure never hides the first error) and the error goes on up.
import type { DuckDBConnection } from '@duckdb/node-api';

export async function inTransaction<T>(c: DuckDBConnection, work: () => Promise<T>): Promise<T> {
  await c.run('BEGIN TRANSACTION');
  try {
    const out = await work();
    await c.run('COMMIT');
    return out;
  } catch (err) {
    await c.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
