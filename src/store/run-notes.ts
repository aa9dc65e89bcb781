// What an export needs from the runs table: the night a snapshot holds, and a warning added to a run whose
// outcome is already settled (the night's exit code and status stand; runs.warnings says what failed after).
import type { DuckDBConnection } from '@duckdb/node-api';

/** In a snapshot, the run that published it (the latest to succeed: a night, a close, an acknowledgement). */
export async function publishedRunId(c: DuckDBConnection): Promise<string | null> {
  const v = (
    await c.runAndReadAll(
      `SELECT run_id FROM runs WHERE status IN ('succeeded', 'publishing') ORDER BY started_at DESC LIMIT 1`,
    )
  ).getRows()[0]?.[0];
  return typeof v === 'string' ? v : null;
}

/** Adds one line to runs.warnings of `runId`. */
export async function addRunWarning(c: DuckDBConnection, runId: string, warning: string): Promise<void> {
  await c.run(
    `UPDATE runs SET warnings = CASE WHEN warnings IS NULL THEN $2 ELSE warnings || chr(10) || $2 END WHERE run_id = $1`,
    [runId, warning],
  );
}
