// A run's row and its trail entry, in one transaction: a run is never recorded without its entry, and
// removing its row later is found by `recon verify`.
import type { DuckDBConnection } from '@duckdb/node-api';
import { startRun } from './runs.js';
import { inTransaction } from './transaction.js';
import { appendTrail, type Actor } from './trail.js';
import { runContent } from './trail-content.js';

export async function startRecordedRun(
  c: DuckDBConnection,
  run: {
    runId: string; command: string; serviceUrl: string | null; options: Record<string, unknown>;
    startedAt: Date; actor: Actor;
  },
): Promise<void> {
  await inTransaction(c, async () => {
    await startRun(c, run);
    await appendTrail(c, [{
      at: run.startedAt, kind: 'run', subject: run.runId,
      content: {
        ...runContent({ run_id: run.runId, command: run.command, started_at: run.startedAt }, run.actor),
        by: run.actor.by,
      },
    }]);
  });
}
