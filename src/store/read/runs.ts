// Reading what runs recorded: the check run a workbook is written for.
import type { DuckDBConnection } from '@duckdb/node-api';

/** The latest check run, or the one named; null when there is none. */
export async function latestCheckRun(
  c: DuckDBConnection,
  runId?: string,
): Promise<{ runId: string; checkedAt: Date } | null> {
  const rows = (
    await c.runAndReadAll(
      `SELECT run_id, checked_at FROM check_runs WHERE $1 IS NULL OR run_id = $1 ORDER BY checked_at DESC LIMIT 1`,
      [runId ?? null],
    )
  ).getRowObjectsJS();
  const run = rows[0];
  return run ? { runId: String(run.run_id), checkedAt: run.checked_at as Date } : null;
}
