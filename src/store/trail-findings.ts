// A check run's finding state changes into the audit trail, inside the run's own transaction: the states
// move and their entries are recorded together or not at all. Only what changed is read and appended
// (sql/controls/trail_finding_changes.sql), page by page, so a night costs its changes, not the history.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlText } from './sql.js';
import { appendTrail } from './trail.js';
import { findingContent } from './trail-content.js';

const PAGE = 5_000;

/** Appends one 'finding' entry per finding whose state run `runId` changed; returns how many. */
export async function appendFindingChanges(c: DuckDBConnection, runId: string, now: Date): Promise<number> {
  let n = 0;
  let after = '';
  for (;;) {
    const read = await c.runAndReadAll(sqlText('controls/trail_finding_changes'), [runId, after, PAGE]);
    const page = read.getRowObjectsJS();
    n += (await appendTrail(c, page.map((r) => ({
      at: now, kind: 'finding' as const, subject: String(r.finding_key),
      content: { ...findingContent(r), run_id: runId, was: r.was ?? null },
    })))).length;
    if (page.length < PAGE) return n;
    after = String(page[page.length - 1]!.finding_key);
  }
}
