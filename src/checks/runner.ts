// Runs every sql/checks/*.sql against the store and records the findings with their lifecycle in one
// transaction: a run either leaves its complete set of exceptions or nothing at all.
// Set-based throughout: each check is one INSERT … SELECT into a staging table, the lifecycle a few
// statements over whole tables, so the work stays in DuckDB whatever the number of payouts.
import { sqlObjects, readThrough } from '../store/objects.js';
import { contractHashes, recordValidated, validatedContracts } from '../store/check-contracts.js';
import { dropMaterialised, materialiseViews } from '../store/materialise.js';
import { inTransaction } from '../store/transaction.js';
import { withoutInsertionOrder } from '../store/db.js';
import { TerminalError } from '../errors.js';
import { preferCompactHeap } from '../ops/memory.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { CheckFileError } from './errors.js';
import { loadChecks, validateCheckColumns, type CheckFile } from './contract.js';
import { applyLifecycle } from './lifecycle.js';
import { appendFindingChanges } from '../store/trail-findings.js';
import { sqlText } from '../store/sql.js';
import { sqlIdent, sqlString } from '../store/sql-text.js';
import { basisOf, chooseMode, recordCheckedRuns, type CheckMode } from './basis.js';
import { dropScopeTables, runScoped, type ScopeSummary } from './scope.js';

import type { FindingStatus, Severity } from '../store/read/types.js';

export type { FindingStatus, Severity };

export interface RunChecksOptions {
  runId: string;
  /** The lifecycle's clock (first_seen, last_seen, resolved_at); injected by tests. */
  now?: Date;
  /** Folder of <check_id>.sql files; sql/checks of the package by default. */
  checksDir?: string;
  /** Run only these checks; findings of the others keep their state. */
  only?: string[];
  /**
   * `incremental`: each check on what changed since the last check run, by its scope, the other findings
   * carried forward (src/checks/scope.ts) — full all the same when no complete run before shares this
   * one's basis (src/checks/basis.ts). `full` (the default): every check on the whole store.
   */
  mode?: 'full' | 'incremental';
}

export interface CheckRunResult {
  runId: string;
  checkedAt: Date;
  /**
   * The checks, in order, with their number of findings, the time of the statement that staged them (`ms`)
   * and when it began, in ms from the first check's (`offsetMs`). A check not run (its `requires:` table
   * empty) has 0 and 0.
   */
  checks: Array<{ checkId: string; findings: number; ms: number; offsetMs: number }>;
  /** Findings produced by this run. */
  findings: number;
  byCheck: Array<{ checkId: string; severity: Severity; count: number }>;
  /** new/open/acknowledged: this run's findings; resolved: findings this run closed. */
  byStatus: Record<FindingStatus, number>;
  /** new + open: what still needs a person (drives the exit code). */
  actionable: number;
  /** Where the run's time went, in ms (validate, materialise, checks, lifecycle, commit); the bench prints it. */
  phases?: Record<string, number>;
  /** How the run checked, and why it was full when incremental was asked for. */
  mode?: CheckMode;
  fullReason?: string | null;
  /** An incremental run's scope: what it re-checked and what it carried forward. */
  scope?: ScopeSummary | null;
}

export class RunChecksError extends TerminalError {
  override readonly name = 'RunChecksError';
  constructor(
    readonly runId: string,
    message: string,
  ) {
    super(message);
  }
}

export async function runChecks(connection: DuckDBConnection, opts: RunChecksOptions): Promise<CheckRunResult> {
  const now = opts.now ?? new Date();
  // what a run reads into JavaScript (the audit trail's pages of changed findings) is garbage once written:
  // held to the sync's heap growth, a first run over a year's store peaks tens of MB lower
  preferCompactHeap();
  const checks = await loadChecks(opts.checksDir, opts.only);
  const done = await connection.runAndReadAll(sqlText('lifecycle/check_run_exists'), [opts.runId]);
  if (done.currentRowCount > 0) {
    throw new RunChecksError(
      opts.runId,
      `checks already ran for run ${opts.runId}; every check run needs its own run id`,
    );
  }
  const phases: Record<string, number> = {};
  let mark = performance.now();
  const phase = (name: string) => {
    const at = performance.now();
    phases[name] = Math.round(at - mark);
    mark = at;
  };
  // Bind every file before touching anything, so a broken file fails fast and names itself; a file
  // validated against this very schema and these SQL objects before is not bound again.
  const hashes = await contractHashes(connection, checks.map((c) => c.sql));
  const validated = await validatedContracts(connection, hashes);
  const fresh: string[] = [];
  for (const [i, check] of checks.entries()) {
    if (validated.has(hashes[i]!)) continue;
    await validateCheckColumns(connection, check);
    fresh.push(hashes[i]!);
  }
  const basis = opts.only ? null : await basisOf(connection, checks, hashes);
  phase('validate');

  const timings: CheckRunResult['checks'] = [];
  let chosen: Awaited<ReturnType<typeof chooseMode>> = { mode: 'full', reason: null };
  let scope: ScopeSummary | null = null;
  // Nothing a check run writes is read back by its place in a table: without insertion order its TEMP
  // tables and INSERTs keep no buffers for it. The checks read the store and write only TEMP tables (the
  // shared views' copies, the scope's, check_stage), so they run before the transaction while the run lock
  // keeps the store as it is; the transaction holds only what the store keeps (findings, the check run).
  // A TEMP table filled inside a transaction stays in DuckDB's memory until the commit instead of spilling
  // to the temp folder: over a year's store at --memory-mb 192 that is the difference (docs/performance.md).
  await withoutInsertionOrder(connection, async () => {
    try {
      chosen = await chooseMode(connection, opts.mode ?? 'full', Boolean(opts.only), basis ?? '');
      await connection.run(sqlText('lifecycle/create_stage'));
      // a check whose `requires:` table is empty finds nothing: it is not run (nor what only it reads)
      const empty = await emptyTables(connection, checks);
      const running = checks.filter((c) => !c.requires.some((t) => empty.has(t)));
      const none = (check: CheckFile) => ({ checkId: check.id, findings: 0, ms: 0, offsetMs: 0 });
      if (chosen.mode === 'incremental') {
        phase('materialise');
        const first = performance.now();
        const scoped = await runScoped(connection, running, (check) => stageCheck(connection, check, first),
          (some) => materialiseShared(connection, some), (views) => dropMaterialised(connection, views));
        for (const check of checks) timings.push(scoped.staged.get(check.id) ?? none(check));
        scope = scoped.summary;
      } else {
        const shared = await materialiseShared(connection, running);
        phase('materialise');
        const first = performance.now();
        for (const check of checks) {
          timings.push(running.includes(check) ? await stageCheck(connection, check, first) : none(check));
        }
        await dropMaterialised(connection, shared);
      }
      phase('checks');
      const mode = chosen.mode;
      await inTransaction(connection, async () => {
        await applyLifecycle(connection, opts.runId, now, opts.only ? checks.map((c) => c.id) : null);
        // the states that moved, into the audit trail in the same transaction: recorded together or not at all
        await appendFindingChanges(connection, opts.runId, now);
        const ran = [opts.runId, now.toISOString(), checks.map((c) => c.id).join(','), mode, basis];
        await connection.run(sqlText('lifecycle/record_check_run'), ran);
        if (mode !== 'only') await recordCheckedRuns(connection, opts.runId);
        await recordValidated(connection, fresh);
        phase('lifecycle');
      });
    } catch (err) {
      // the first error is the one to see: a cleanup failing after it says less
      await dropRunTemps(connection).catch(() => undefined);
      throw err;
    }
    // the shared views' copies and the scope's tables went as each finished: the stage is what is left
    await connection.run(sqlText('lifecycle/drop_stage'));
  });
  phase('commit');
  const { mode, reason } = chosen;
  const summary = await checkRunSummary(connection, opts.runId, now, timings);
  return { ...summary, phases, mode, fullReason: mode === 'full' ? reason : null, scope };
}

/**
 * Views several checks read, computed once. While the run holds its lock nothing changes the data, so a
 * view whose file says `materialised: per check run`, read by at least two of the run's checks (directly,
 * or through a view built on it), is computed once into a TEMP table of the same name: unqualified names
 * resolve to the temp catalog first, so the check files (plain SELECTs that also run on their own against
 * the views) read exactly the view's rows and types without computing them again. In dependency order;
 * dropped before the lifecycle's transaction (after a failure, by dropRunTemps).
 */
async function materialiseShared(connection: DuckDBConnection, checks: readonly CheckFile[]): Promise<string[]> {
  if (checks.length < 2) return [];
  const objects = await sqlObjects();
  const readers = checks.map((c) => readThrough(objects, c.sql));
  const shared = objects
    .filter((o) => o.materialised && readers.filter((r) => r.has(o.name)).length >= 2)
    .map((o) => o.name);
  await materialiseViews(connection, shared);
  return shared;
}

/**
 * Every TEMP table a check run may leave when it fails part way: the copies of materialised views (which
 * would otherwise stand in for the views on this connection), the scope's tables and the stage. Each
 * dropped only if it is there.
 */
async function dropRunTemps(connection: DuckDBConnection): Promise<void> {
  const views = (await sqlObjects()).filter((o) => o.materialised).map((o) => o.name);
  await dropMaterialised(connection, views);
  await dropScopeTables(connection);
  await connection.run(sqlText('lifecycle/drop_stage'));
}

/** The `requires:` tables of the checks that hold no row; a table that does not exist fails its first check. */
async function emptyTables(connection: DuckDBConnection, checks: readonly CheckFile[]): Promise<Set<string>> {
  const empty = new Set<string>();
  for (const table of new Set(checks.flatMap((c) => c.requires))) {
    const rows = await connection
      .runAndReadAll(sqlText('lifecycle/table_is_empty', { table: sqlIdent(table) }))
      .catch((err: unknown) => {
        const check = checks.find((c) => c.requires.includes(table))!;
        throw new CheckFileError(check.id, check.file, `requires: ${table}: ${(err as Error).message}`, { cause: err });
      });
    if (rows.getRows()[0]![0] === true) empty.add(table);
  }
  return empty;
}

/** What a check's contract expression says before a row's problem (sql/lifecycle/stage_check.sql). */
const CONTRACT = 'check contract: ';

/**
 * A check's statement (stage_check.sql): its id and severity as literals around its SELECT; a check that
 * chooses its severity per row has it held to the header's (row_severity.sql).
 */
function stageStatement(check: CheckFile): string {
  const severity = check.severities.length === 1 ? sqlString(check.severities[0]!)
    : sqlText('lifecycle/row_severity', { severities: `[${check.severities.map(sqlString).join(', ')}]` });
  return sqlText('lifecycle/stage_check', { check: check.sql, file_id: sqlString(check.id), severity });
}

/**
 * One check staged by its own statement, `first` the time the run's first check began: a failure names
 * its file, the check has its own time, and what its operators hold is freed before the next. (All in one
 * UNION ALL was measured: faster on the bench store, slower on a synced one, and the checks after a
 * 1M-payout sync peaked 30 MB above the sync; docs/performance.md.)
 */
async function stageCheck(
  connection: DuckDBConnection,
  check: CheckFile,
  first: number,
): Promise<CheckRunResult['checks'][number]> {
  const started = performance.now();
  let inserted: number;
  try {
    inserted = (await connection.run(stageStatement(check))).rowsChanged;
  } catch (err) {
    const message = (err as Error).message;
    const at = message.indexOf(CONTRACT);
    if (at >= 0) throw new CheckFileError(check.id, check.file, message.slice(at + CONTRACT.length), { cause: err });
    throw new CheckFileError(check.id, check.file, `failed: ${message}`, { cause: err });
  }
  return {
    checkId: check.id,
    findings: inserted,
    ms: Math.round(performance.now() - started),
    offsetMs: Math.round(started - first),
  };
}

/** What a check run found, from the store: counts per check and severity, and per lifecycle status. */
export async function checkRunSummary(
  connection: DuckDBConnection,
  runId: string,
  checkedAt: Date,
  checks: CheckRunResult['checks'] = [],
): Promise<CheckRunResult> {
  const byCheckRows = await connection.runAndReadAll(sqlText('lifecycle/findings_by_check'), [runId]);
  const byCheck = byCheckRows.getRows().map(([checkId, severity, count]) => ({
    checkId: String(checkId),
    severity: severity as Severity,
    count: Number(count),
  }));
  const statusRows = await connection.runAndReadAll(sqlText('lifecycle/findings_by_status'), [runId]);
  const byStatus: Record<FindingStatus, number> = { new: 0, open: 0, acknowledged: 0, resolved: 0 };
  for (const [status, count] of statusRows.getRows()) byStatus[status as FindingStatus] = Number(count);
  const findings = byCheck.reduce((sum, c) => sum + c.count, 0);
  return { runId, checkedAt, checks, findings, byCheck, byStatus, actionable: byStatus.new + byStatus.open };
}
