// What recon learned about the service (service_settings), remembered for later runs.
import type { DuckDBConnection } from '@duckdb/node-api';

/** The largest page size the service accepted after refusing a larger one, or null. */
export async function rememberedPageSize(c: DuckDBConnection): Promise<number | null> {
  const v = (await c.runAndReadAll(`SELECT value FROM service_settings WHERE key = 'per_page'`)).getRows()[0]?.[0];
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : null;
}

export async function rememberPageSize(c: DuckDBConnection, size: number, runId: string): Promise<void> {
  await c.run(`INSERT OR REPLACE INTO service_settings VALUES ('per_page', $1, now(), $2)`, [String(size), runId]);
}
