// Incremental checks: a night re-checks what changed since the last check run and carries the rest
// forward. Each check says in its header what its findings depend on (`-- scope:`, src/checks/contract.ts);
// for a check of scope `disbursement` or `reference` the runner builds a small copy of the store — TEMP
// tables named like the store's tables, holding only the rows in scope, which unqualified names (the check
// files and the views they read) resolve to first, as for the shared views (src/store/materialise.ts) —
// runs the check's own SELECT over it unchanged, and copies the check's other open findings into the stage
// as they are (keys, numbers and words), so the lifecycle gives them the same status a full run would.
// What a night costs then follows what it changed, not the history (docs/performance.md, "Incremental
// checks"); test/unit/checks/incremental.test.ts holds it to `recon check --full`.
import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { readThrough, sqlObjects, withoutComments } from '../store/objects.js';
import { currentDatabase } from '../store/materialise.js';
import { sqlText } from '../store/sql.js';
import { sqlIdent, sqlString } from '../store/sql-text.js';
import type { CheckFile } from './contract.js';

/** Where the seeds of a disbursement scope come from: a table a check reads, and the source it adds. */
const SEED_SOURCES: ReadonlyArray<[tables: string[], source: string]> = [
  [['quarantine'], 'quarantine'],
  [['payment_samples'], 'payment_samples'],
  [['closes', 'close_disbursements'], 'closes'],
];
/** Every check of scope disbursement is seeded by these: the disbursements written since, and those gone. */
const ALWAYS = ['disbursements', 'gone'];

/**
 * The store's tables a disbursement world copies. A line table's rows of a disbursement written since the
 * last check run carry that run's id (the writer replaces a disbursement whole, under its run id: schema
 * 001), so they are found by it (zone maps skip the older row groups); the rest are read by disbursement.
 */
const LINE_TABLES = ['payouts', 'refunds', 'adjustments', 'disbursement_files', 'file_lines'];
const ROW_TABLES = ['disbursements', 'disbursement_history', 'payment_samples', 'close_disbursements'];
/** What a `reference` world holds (sql/scope/reference_*.sql: the lines by key, the samples, their disbursements). */
const REFERENCE_WORLD = ['payouts', 'refunds', 'adjustments', 'payment_samples', 'disbursements'];

export interface ScopeSummary {
  /** Disbursements re-checked by the checks of scope disbursement (the largest of their scopes). */
  disbursements: number;
  /** Settlement keys re-checked by the checks of scope reference. */
  keys: number;
  /** Open findings carried forward unchanged. */
  carried: number;
}

/** A check staged by the runner: its statement, its time. */
type Stage<T> = (check: CheckFile) => Promise<T>;
/** The runner's shared views of a set of checks, computed over what the names resolve to now; returns them. */
type Share = (checks: readonly CheckFile[]) => Promise<string[]>;
type Unshare = (views: readonly string[]) => Promise<void>;

/** The tables of the store a check reads, directly or through the views it reads. */
async function tablesRead(check: CheckFile): Promise<Set<string>> {
  const objects = await sqlObjects();
  const through = readThrough(objects, check.sql);
  const read = objects.filter((o) => through.has(o.name)).map((o) => o.sql);
  const text = [check.sql, ...read].map(withoutComments).join('\n');
  const tables = [...LINE_TABLES, ...ROW_TABLES, 'quarantine', 'closes'];
  return new Set(tables.filter((t) => new RegExp(`\\b${t}\\b`, 'i').test(text)));
}

/**
 * The seed sources of a disbursement-scope check: what it reads decides what, written since, touches it.
 * Only the sources that add a disbursement tonight (`present`) count, so that checks whose scopes are the
 * same tonight share one copy of the store.
 */
async function sourcesOf(check: CheckFile, present: ReadonlySet<string>): Promise<string[]> {
  const read = await tablesRead(check);
  const adds = SEED_SOURCES.filter(([tables, source]) => present.has(source) && tables.some((t) => read.has(t)));
  return [...ALWAYS, ...adds.map(([, source]) => source)];
}

const literals = (values: readonly string[]): string => (values.length ? values.map(sqlString).join(', ') : 'NULL');

async function count(c: DuckDBConnection, table: string): Promise<number> {
  return Number((await c.runAndReadAll(sqlText('scope/count', { table: sqlIdent(table) }))).getRows()[0]![0]);
}

/**
 * Runs `running` (the checks not skipped by `requires:`) on their scopes and stages their rows, then the
 * open findings outside those scopes; checks of scope all run on the whole store first. Inside the run's
 * transaction: nothing changes the store meanwhile. Returns each check's staging result in `running`'s order.
 */
export async function runScoped<T>(
  c: DuckDBConnection, running: readonly CheckFile[], stage: Stage<T>, share: Share, unshare: Unshare,
): Promise<{ staged: Map<string, T>; summary: ScopeSummary }> {
  const db = sqlIdent(await currentDatabase(c));
  const staged = new Map<string, T>();
  const summary: ScopeSummary = { disbursements: 0, keys: 0, carried: 0 };
  const whole = running.filter((k) => k.scope === 'all');
  const views = await share(whole);
  for (const check of whole) staged.set(check.id, await stage(check));
  await unshare(views);

  await createSeeds(c);
  await c.run(sqlText('scope/create_decided'));
  const runs = (await c.runAndReadAll(sqlText('scope/changed_runs'))).getRows().map((r) => String(r[0]));
  const present = new Set((await c.runAndReadAll(sqlText('scope/extra_sources'))).getRows().map((r) => String(r[0])));
  const groups = new Map<string, CheckFile[]>();
  for (const check of running.filter((k) => k.scope === 'disbursement')) {
    const key = (await sourcesOf(check, present)).join(',');
    groups.set(key, [...(groups.get(key) ?? []), check]);
  }
  for (const [sources, checks] of groups) {
    const ids = checks.map((k) => k.id);
    await c.run(sqlText('scope/create_scope_d', { sources: `[${literals(sources.split(','))}]` }));
    summary.disbursements = Math.max(summary.disbursements, await count(c, 'scope_d'));
    const world = await disbursementWorld(c, db, checks, runs);
    await inWorld(c, world, checks, stage, share, unshare, staged);
    await c.run(sqlText('scope/decided_disbursement'), [listValue(ids)]);
  }
  const byKey = running.filter((k) => k.scope === 'reference');
  if (byKey.length > 0) {
    const ids = byKey.map((k) => k.id);
    await c.run(sqlText('scope/create_scope_d', { sources: `[${literals(ALWAYS)}]` }));
    await c.run(sqlText('scope/reference_keys', { db, runs: literals(runs) }), [listValue(ids)]);
    summary.keys = await count(c, 'scope_keys');
    const world = await referenceWorld(c, db);
    await inWorld(c, world, byKey, stage, share, unshare, staged);
    await c.run(sqlText('scope/decided_reference'), [listValue(ids)]);
  }
  const carried = running.filter((k) => k.scope !== 'all').map((k) => k.id);
  summary.carried = (await c.run(sqlText('scope/carry'), [listValue(carried)])).rowsChanged;
  await dropScopeTables(c);
  return { staged, summary };
}

/** The tables a scoped run keeps between its steps (the runner drops them after a failure too). */
export async function dropScopeTables(c: DuckDBConnection): Promise<void> {
  for (const table of ['scope_seed', 'scope_d', 'scope_keys', 'scope_decided']) await dropTemp(c, table);
}

/** What each seed source says was written since the last complete check run (sql/scope/seed_*.sql). */
async function createSeeds(c: DuckDBConnection): Promise<void> {
  await c.run(sqlText('scope/create_seed'));
  for (const source of ['disbursements', 'gone', 'quarantine', 'payment_samples']) {
    await c.run(sqlText(`scope/seed_${source}`));
  }
  // a close touches its whole month: looked for only on the night after one
  const closes = (await c.runAndReadAll(sqlText('scope/closes_since'))).getRows().length > 0;
  if (closes) await c.run(sqlText('scope/seed_closes'));
}

/** The disbursement world of `checks` over scope_d: only the tables they read. */
async function disbursementWorld(
  c: DuckDBConnection, db: string, checks: readonly CheckFile[], runs: readonly string[],
): Promise<string[]> {
  const read = new Set<string>();
  for (const check of checks) for (const t of await tablesRead(check)) read.add(t);
  const world: string[] = [];
  const stale = (await c.runAndReadAll(sqlText('scope/stale'))).getRows().length > 0;
  for (const table of LINE_TABLES.filter((t) => read.has(t))) {
    const parts = { table: sqlIdent(table), source: `${db}.main.${sqlIdent(table)}` };
    await c.run(sqlText('scope/world_lines', { ...parts, runs: literals(runs) }));
    // disbursements in scope for a row a run added beside them (a sample, a quarantine row, a close): their
    // lines are read by disbursement, a scan of the table's ids, on the nights that have any
    if (stale) await c.run(sqlText('scope/world_lines_stale', parts));
    world.push(table);
  }
  for (const table of ROW_TABLES.filter((t) => read.has(t) || t === 'disbursements')) {
    await c.run(sqlText('scope/world_rows', { table: sqlIdent(table), source: `${db}.main.${sqlIdent(table)}` }));
    world.push(table);
  }
  if (read.has('quarantine')) {
    await c.run(sqlText('scope/world_quarantine', { db }));
    world.push('quarantine');
  }
  return world;
}

/** The reference world of scope_keys: each table of it in turn (its disbursements last: read from the others). */
async function referenceWorld(c: DuckDBConnection, db: string): Promise<string[]> {
  for (const table of REFERENCE_WORLD) await c.run(sqlText(`scope/reference_${table}`, { db }));
  return REFERENCE_WORLD;
}

/** Stage `checks` with the world's tables in place of the store's, then drop them. */
async function inWorld<T>(
  c: DuckDBConnection, world: readonly string[], checks: readonly CheckFile[], stage: Stage<T>, share: Share,
  unshare: Unshare, staged: Map<string, T>,
): Promise<void> {
  try {
    const views = await share(checks);
    for (const check of checks) staged.set(check.id, await stage(check));
    await unshare(views);
  } finally {
    for (const table of world) await dropTemp(c, table);
  }
}

async function dropTemp(c: DuckDBConnection, table: string): Promise<void> {
  await c.run(sqlText('scope/drop_temp', { table: sqlIdent(table) }));
}
