// The exception lifecycle, set-based: the run's findings (staged in check_stage) become `exceptions`
// rows with their status, and `findings` (one row per key) moves on. Run inside the runner's
// transaction, after every check has been staged. The statements are sql/lifecycle/*.sql; the rules of
// each status are written at the top of insert_exceptions.sql.
import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { sqlText } from '../store/sql.js';
import { AckError } from './errors.js';

/**
 * Write the staged findings of run `runId` and advance the lifecycle. checkIds: the checks that ran, or
 * null when every check ran, in which case findings of checks that no longer exist are resolved too.
 */
export async function applyLifecycle(
  connection: DuckDBConnection,
  runId: string,
  now: Date,
  checkIds: readonly string[] | null,
): Promise<void> {
  const params = [runId, now.toISOString()];
  await connection.run(sqlText('lifecycle/insert_exceptions'), params);
  // Existing keys are updated before new ones are inserted, so update_seen only touches old rows.
  await connection.run(sqlText('lifecycle/update_seen'), params);
  await connection.run(sqlText('lifecycle/seen_again'), params);
  await connection.run(sqlText('lifecycle/insert_new'), params);
  await connection.run(sqlText('lifecycle/resolve'), [...params, checkIds === null ? null : listValue([...checkIds])]);
}

/**
 * The findings of check run `runId` have been shown in a workbook that was written whole: from now on they
 * are "open", no longer "new". Called only after the workbook is in place, so a run that failed before
 * (or while) writing it leaves its findings new for the next workbook.
 */
export async function markShown(connection: DuckDBConnection, runId: string): Promise<void> {
  await connection.run(sqlText('lifecycle/mark_shown'), [runId]);
}

/**
 * The finding a person acts on (recon ack, recon assign) as `find` (a sql/lifecycle file) reads it: one that
 * exists and is not resolved; otherwise an AckError saying where keys are and that there is nothing to `doing`.
 */
export async function unresolvedFinding(
  connection: DuckDBConnection,
  find: string,
  key: string,
  doing: string,
): Promise<Record<string, unknown>> {
  const row = (await connection.runAndReadAll(sqlText(find), [key])).getRowObjectsJS()[0];
  if (!row) {
    throw new AckError(key, `no finding with key ${key}; see the Key column of the workbook `
      + 'or SELECT finding_key FROM open_exceptions');
  }
  if (row.state === 'resolved') {
    throw new AckError(key, `finding ${key} was resolved in run ${String(row.resolved_run_id)}; `
      + `there is nothing to ${doing}`);
  }
  return row;
}
