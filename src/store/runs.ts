// The runs table: one row per command run with its status and counters (requests, retries, 429s …).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { writeFileAtomically } from '../files.js';
import { randomBytes } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';

export type RunStatus = 'running' | 'succeeded' | 'failed' | 'interrupted' | 'publishing';

/** Sortable, readable run id: UTC time + random suffix, e.g. 20261122T023000Z-4f2a. */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

export async function startRun(
  c: DuckDBConnection,
  run: {
    runId: string;
    command: string;
    serviceUrl: string | null;
    options: Record<string, unknown>;
    startedAt?: Date;
  },
): Promise<void> {
  await c.run(
    `INSERT INTO runs (run_id, command, started_at, status, service_url, options) VALUES ($1, $2, $3::TIMESTAMPTZ, 'running', $4, $5::JSON)`,
    [run.runId, run.command, (run.startedAt ?? new Date()).toISOString(), run.serviceUrl, JSON.stringify(run.options)],
  );
}

export interface RunCounters {
  disbursements_listed?: number;
  disbursements_loaded?: number;
  disbursements_skipped?: number;
  lines_loaded?: number;
  files_downloaded?: number;
  quarantined?: number;
  restated?: number;
  requests?: number;
  retries?: number;
  rate_limited?: number;
  /** Time the sync sat in 429 blocks. */
  paused_ms?: number;
}

export async function finishRun(
  c: DuckDBConnection,
  runId: string,
  status: RunStatus,
  counters: RunCounters,
  error?: string,
): Promise<void> {
  const entries = Object.entries(counters).filter(([, v]) => v !== undefined);
  const sets = entries.map(([k], i) => `${k} = $${i + 4}`);
  await c.run(
    `UPDATE runs SET status = $1, finished_at = now(), error = $2${sets.length ? ', ' + sets.join(', ') : ''} WHERE run_id = $3`,
    [status, error ?? null, runId, ...entries.map(([, v]) => v as number)],
  );
}

/** Runs left 'running' by a process that died: they were interrupted (called at start, under the lock). */
export async function markAbandonedRuns(c: DuckDBConnection): Promise<void> {
  await c.run(
    `UPDATE runs SET status = 'interrupted', error = coalesce(error, 'process ended without finishing the run') WHERE status = 'running'`,
  );
  // ended while publishing: whether the new snapshot was swapped in is unknown, so the run is not a success
  await c.run(`UPDATE runs SET status = 'failed', error = 'process ended while publishing the snapshot; the snapshot accountants see may be the previous one'
    WHERE status = 'publishing'`);
}

/**
 * When the last run of these commands succeeded. Read from a published snapshot, a run 'publishing' is
 * the run that published that very snapshot, so it counts; in the live store such a row is either the run
 * in progress or, after markAbandonedRuns, 'failed'.
 */
export async function lastSuccessfulRun(c: DuckDBConnection, commands: string[] = ['run']): Promise<Date | null> {
  const reader = await c.runAndReadAll(
    `SELECT epoch_ms(max(finished_at)) FROM runs WHERE status IN ('succeeded', 'publishing') AND command IN (${commands.map((_, i) => `$${i + 1}`).join(', ')})`,
    commands,
  );
  const v = reader.getRows()[0]?.[0];
  return v === null || v === undefined ? null : new Date(Number(v));
}

/** Beside the store: the failure of a run whose store could not record it (DuckDB invalidated it). */
const failureNotePath = (dbPath: string) => `${dbPath}.failed-run.json`;

export async function noteFailure(dbPath: string, runId: string, error: string): Promise<void> {
  // whole or absent: on a full disk an empty note would be worse than none
  await writeFileAtomically(failureNotePath(dbPath), (temp) => writeFile(temp, JSON.stringify({ runId, error }))).catch(
    () => undefined,
  );
}

/** Records the noted failure on its run (instead of 'interrupted'), then removes the note. */
export async function applyFailureNote(c: DuckDBConnection, dbPath: string): Promise<void> {
  let note: { runId?: unknown; error?: unknown };
  try {
    note = JSON.parse(await readFile(failureNotePath(dbPath), 'utf8')) as typeof note;
  } catch {
    return;
  }
  if (typeof note.runId === 'string' && typeof note.error === 'string') {
    await c.run(
      `UPDATE runs SET status = 'failed', error = $2 WHERE run_id = $1 AND status IN ('running', 'interrupted', 'publishing')`,
      [note.runId, note.error],
    );
  }
  await rm(failureNotePath(dbPath), { force: true });
}

/**
 * The service a workbook speaks of: the one given (--api-url), else the one the latest run that talked
 * to a service recorded (a `report` or `close` run alone knows no service of its own).
 */
export async function serviceUrlOf(c: DuckDBConnection, given: string | undefined): Promise<string> {
  if (given) return given;
  const v = (await c.runAndReadAll(
    `SELECT service_url FROM runs WHERE service_url IS NOT NULL ORDER BY started_at DESC LIMIT 1`)).getRows()[0]?.[0];
  return typeof v === 'string' ? v : '';
}
