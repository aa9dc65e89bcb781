// The upgrade to the audit trail (migration 080) seeds the chain from what the store already holds, in
// the migration's own transaction: every run, every close, every acknowledgement and withdrawal of the
// history, then every finding's current state. Each seeded entry says so ("seeded": true); nothing before
// the upgrade is lost, and from here on every change is an entry of its own. A store that already has a
// chain is never seeded again (a removed trail is found by `recon verify`, never silently rebuilt).
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlText } from './sql.js';
import { appendTrail, type TrailInput } from './trail.js';
import { ackContent, closeContent, closeSubject, findingContent, runContent } from './trail-content.js';

/** The migration whose tables the seed fills. */
export const TRAIL_MIGRATION = 80;

const PAGE = 10_000;

async function rows(c: DuckDBConnection, name: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  return (await c.runAndReadAll(sqlText(name), params as never)).getRowObjectsJS();
}

const at = (v: unknown, fallback: Date): Date => (v instanceof Date ? v : fallback);

/** Appends the seed entries; runs inside the migration's transaction. Returns how many. */
export async function seedTrail(c: DuckDBConnection, now: Date = new Date()): Promise<number> {
  let n = 0;
  const append = async (inputs: TrailInput[]) => {
    n += (await appendTrail(c, inputs)).length;
  };
  await append((await rows(c, 'controls/rows_runs')).map((r) => ({
    at: at(r.started_at, now), kind: 'run', subject: String(r.run_id), content: { ...runContent(r), seeded: true },
  })));
  await append((await rows(c, 'controls/rows_closes')).map((r) => ({
    at: at(r.closed_at, now), kind: Number(r.version) > 1 ? 'reissue' : 'close',
    subject: closeSubject(String(r.month), Number(r.version)), content: { ...closeContent(r), seeded: true },
  })));
  await append((await rows(c, 'controls/rows_acks')).map((r) => ({
    at: at(r.ack_at, now), kind: 'ack', subject: String(r.finding_key), content: { ...ackContent(r), seeded: true },
  })));
  let after = '';
  for (;;) {
    const page = await rows(c, 'controls/rows_findings', [after, PAGE]);
    await append(page.map((r) => ({
      at: at(r.state_at, now), kind: 'finding', subject: String(r.finding_key),
      content: { ...findingContent(r), seeded: true },
    })));
    if (page.length < PAGE) break;
    after = String(page[page.length - 1]!.finding_key);
  }
  return n;
}
