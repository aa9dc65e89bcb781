// Quarantine rows written outside a disbursement's own batch: a list record that failed validation, and
// a disbursement list that ended before its announced size (kept as a 'page' row so invalid_record puts
// it in front of an accountant, not only in a log).
import type { DuckDBConnection } from '@duckdb/node-api';
import { inTransaction } from './transaction.js';

/** A list record that is not a valid disbursement; replaces the earlier quarantine row of the same id. */
export async function quarantineRecord(
  c: DuckDBConnection, runId: string, item: unknown, reason: string, raw: string, redact: (text: string) => string,
): Promise<void> {
  const field = (item as Record<string, unknown> | null)?.disbursement_id;
  const id = typeof field === 'string' ? field : null;
  [reason, raw] = [redact(reason), redact(raw)];
  await inTransaction(c, async () => {
    if (id) await c.run(`DELETE FROM quarantine WHERE disbursement_id = $1 AND resource = 'disbursement'`, [id]);
    await c.run(`INSERT INTO quarantine VALUES ($1, $2, 'disbursement', NULL, $3, $4, now())`, [
      runId,
      id,
      reason,
      raw,
    ]);
  });
}

export async function quarantinePage(c: DuckDBConnection, runId: string, reason: string): Promise<void> {
  await c.run(`INSERT INTO quarantine VALUES ($1, NULL, 'page', NULL, $2, NULL, now())`, [runId, reason]);
}
