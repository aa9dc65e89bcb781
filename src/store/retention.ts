// What the retention (`recon prune`, --keep-days) may remove, asked of the store: never a downloaded file
// of a disbursement that an unresolved finding names or whose month is not closed, nor a workbook of a run
// that reported or showed an unresolved finding.
import type { DuckDBConnection } from '@duckdb/node-api';
import { appendRows } from './append.js';
import { inTransaction } from './transaction.js';

/**
 * Blobs (sha256) the store still needs: a file of a disbursement delivered or downloaded since `cutoff`,
 * of a month not closed (month_of(delivered_at) without a row in closes), or named by an unresolved finding;
 * a file of a disbursement still incomplete (it is read again) is needed too.
 */
export async function neededBlobs(c: DuckDBConnection, cutoff: Date): Promise<Set<string>> {
  const rows = (
    await c.runAndReadAll(
      `SELECT DISTINCT df.sha256 FROM disbursement_files df JOIN disbursements d USING (disbursement_id)
      WHERE df.sha256 IS NOT NULL AND (
        d.delivered_at >= $1::TIMESTAMPTZ OR coalesce(df.downloaded_at >= $1::TIMESTAMPTZ, TRUE)
        OR d.delivered_at IS NULL OR month_of(d.delivered_at) NOT IN (SELECT month FROM closes)
        OR d.sync_status = 'incomplete'
        OR d.disbursement_id IN (SELECT disbursement_id FROM findings WHERE state <> 'resolved' AND disbursement_id IS NOT NULL))`,
      [cutoff.toISOString()],
    )
  ).getRows();
  return new Set(rows.map((r) => String(r[0])));
}

/** Every blob a stored disbursement file names (needed or not): the others under files/ are no one's. */
export async function referencedBlobs(c: DuckDBConnection): Promise<Set<string>> {
  const rows = (
    await c.runAndReadAll('SELECT DISTINCT sha256 FROM disbursement_files WHERE sha256 IS NOT NULL')
  ).getRows();
  return new Set(rows.map((r) => String(r[0])));
}

/**
 * Run ids whose workbook an unresolved finding needs: the run that first reported it, last reported it, or showed it.
 */
export async function neededRuns(c: DuckDBConnection): Promise<Set<string>> {
  const rows = (await c.runAndReadAll(
    `SELECT first_run_id FROM findings WHERE state <> 'resolved'
     UNION SELECT last_run_id FROM findings WHERE state <> 'resolved'
     UNION SELECT shown_run_id FROM findings WHERE state <> 'resolved' AND shown_run_id IS NOT NULL`,
  )).getRows();
  return new Set(rows.map((r) => String(r[0])));
}

/** Every run the store records: a workbook or results file of any other run is not recon's to remove. */
export async function knownRuns(c: DuckDBConnection): Promise<Set<string>> {
  const rows = (await c.runAndReadAll('SELECT run_id FROM runs')).getRows();
  return new Set(rows.map((r) => String(r[0])));
}

/** Remembers blobs removed on purpose, so the sync does not read their disbursements again (src/store/blobs.ts). */
export async function recordPrunedBlobs(c: DuckDBConnection, shas: readonly string[], runId: string): Promise<void> {
  if (shas.length === 0) return;
  await inTransaction(c, async () => {
    await c.run('CREATE OR REPLACE TEMP TABLE _pruned (sha256 VARCHAR)');
    await appendRows(c, '_pruned', ['varchar'], shas.map((s) => [s]));
    await c.run('DELETE FROM pruned_blobs WHERE sha256 IN (SELECT sha256 FROM _pruned)');
    await c.run('INSERT INTO pruned_blobs SELECT DISTINCT sha256, now(), $1 FROM _pruned', [runId]);
  });
}
