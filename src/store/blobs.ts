// The downloaded files live beside the store under files/<ab>/<sha256>. The store says which blobs a
// disbursement's files should have; if the folder lost them, the disbursement is read again.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from './sql-text.js';

/** Disbursements with a downloaded file whose blob is no longer under `filesDir`. */
export async function disbursementsMissingBlobs(c: DuckDBConnection, filesDir: string): Promise<Set<string>> {
  const rows = (await c.runAndReadAll(
    `WITH present AS (SELECT parse_filename(file) AS sha256 FROM glob(${sqlString(`${filesDir}/*/*`)}))
     SELECT DISTINCT df.disbursement_id FROM disbursement_files AS df
      WHERE df.sha256 IS NOT NULL AND df.sha256 NOT IN (SELECT sha256 FROM present)`,
  )).getRows();
  return new Set(rows.map((r) => String(r[0])));
}
