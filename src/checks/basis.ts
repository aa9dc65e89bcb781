// Whether a check run may be incremental: a complete check run before it (full or incremental) computed
// the findings it carries, on the same basis — the same check files (SQL, severities, scopes), SQL objects
// and schema (their contract hashes, src/store/check-contracts.ts) and the same settings. Anything else
// makes the run full, and says why.
import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlText } from '../store/sql.js';
import type { CheckFile } from './contract.js';

export type CheckMode = 'full' | 'incremental' | 'only';

/** The digest of what the findings of a run over `checks` (with their contract hashes) are computed on. */
export async function basisOf(
  c: DuckDBConnection, checks: readonly CheckFile[], hashes: readonly string[],
): Promise<string> {
  const hash = createHash('sha256');
  checks.forEach((check, i) => {
    hash.update(`${check.id}\0${check.scope}\0${check.severities.join('/')}\0${hashes[i]}\0`);
  });
  const [settings] = (await c.runAndReadAll(sqlText('scope/settings'))).getRows();
  hash.update(JSON.stringify(settings));
  return hash.digest('hex');
}

/**
 * How a run checks: `only` for --only, `full` when asked or when no complete run before it shares its basis
 * (`reason` says which), else `incremental`.
 */
export async function chooseMode(
  c: DuckDBConnection, asked: 'full' | 'incremental', only: boolean, basis: string,
): Promise<{ mode: CheckMode; reason: string | null }> {
  if (only) return { mode: 'only', reason: 'only the checks named' };
  if (asked === 'full') return { mode: 'full', reason: 'asked for (--full)' };
  const last = (await c.runAndReadAll(sqlText('scope/last_basis'))).getRows()[0];
  if (!last) return { mode: 'full', reason: 'no complete check run before this one' };
  if (last[0] !== basis) {
    const reason = 'the check files, SQL objects, schema or settings changed since the last check run';
    return { mode: 'full', reason };
  }
  return { mode: 'incremental', reason: null };
}

/** The runs whose rows complete check run `runId` took in (sql/schema/085). */
export async function recordCheckedRuns(c: DuckDBConnection, runId: string): Promise<void> {
  await c.run(sqlText('scope/record_checked_runs'), [runId]);
}
