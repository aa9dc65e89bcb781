// The night's results into the team's PostgreSQL, month by month. Each month's fingerprint (computed on
// the published snapshot, src/store/month-fingerprint.ts) is compared with the one PostgreSQL holds for it
// (export_months); only a month that differs is written, in one transaction: its rows of every partitioned
// table and finance view deleted and copied again, and its new fingerprint saved — a reader sees the month
// before or after, never half. The tables written whole ('*') go together in one transaction last. A month
// the store no longer has is emptied. Killed or cut off, the export leaves every month whole: what was not
// committed is rolled back by the server, and the next export writes what still differs.
import type { DuckDBConnection } from '@duckdb/node-api';
import { copyLineExpression, streamLines, type TargetColumn } from '../store/copy-text.js';
import { monthSliceSql, prepareSlices, releaseSlices, WHOLE, type Slice } from '../store/month-slices.js';
import { monthFingerprints, recordMonthExports, type MonthPrint } from '../store/month-fingerprint.js';
import { sqlIdent, sqlString } from '../store/sql-text.js';
import { oneLine } from '../errors.js';
import { redact } from '../api/redact.js';
import { Warehouse, WarehouseRefusedError, WarehouseUnreachableError } from './connection.js';
import { prepareSchema } from './migrate.js';
import type { PostgresTarget } from './target.js';

export interface PostgresExportSettings {
  target: PostgresTarget;
}

export interface PostgresExportResult {
  target: string;
  months: number;
  replaced: string[];
  removed: string[];
  rows: number;
  migrations: string[];
}

export interface PostgresExportRun {
  /** The published snapshot, read-only: what is exported. */
  source: DuckDBConnection;
  /** The store, under the run lock: where the months written are remembered. */
  store: DuckDBConnection;
  runId: string;
  /** The night the snapshot holds (its latest run). */
  snapshotRunId: string | null;
  /** Called inside a month's transaction before it commits (tests look at the database from outside then). */
  beforeCommit?: (month: string) => Promise<void>;
  onMonth?: (month: string, rows: number) => void;
}

interface Target {
  slice: Slice;
  columns: TargetColumn[];
  partitioned: boolean;
  keyed: boolean;
}

const partitionName = (table: string, month: string) => `${table}_p${month.replace(/-/g, '_')}`;

export async function exportToPostgres(
  settings: PostgresExportSettings,
  run: PostgresExportRun,
): Promise<PostgresExportResult> {
  const w = await Warehouse.connect(settings.target);
  try {
    await w.select('lock_schema', [settings.target.schema]).catch((err: Error) => {
      if (/lock timeout/i.test(err.message)) {
        throw new WarehouseUnreachableError(
          `another export is writing schema ${settings.target.schema} of ${settings.target.id} (waited 60 s); try ` +
            `again once it ends`,
        );
      }
      throw err;
    });
    const migrations = await prepareSchema(w);
    await w.exec('export_interrupted');
    const slices = await prepareSlices(run.source);
    try {
      const targets = await targetTables(w, slices);
      const layout = JSON.stringify(
        targets.map((t) => [t.slice.object.name, t.columns.map((c) => `${c.name}:${c.type}`)]),
      );
      const covered = new Map(
        targets.map((t) => [
          t.slice.object.name,
          t.columns.filter((c) => t.slice.columns.includes(c.name)).map((c) => c.name),
        ]),
      );
      const current = await monthFingerprints(run.source, slices, covered, layout);
      const held = new Map(
        (await w.select<{ month: string; fingerprint: string }>('export_months')).map((r) => [r.month, r.fingerprint]),
      );
      const changed = current
        .filter((m) => held.get(m.month) !== m.fingerprint)
        .sort((a, b) => order(a.month) - order(b.month) || (a.month < b.month ? -1 : 1));
      const gone = [...held.keys()].filter((m) => !current.some((c) => c.month === m));
      await w.exec('export_begin', {}, [run.runId, run.snapshotRunId]);
      const result: PostgresExportResult = {
        target: settings.target.id,
        months: current.length,
        replaced: [],
        removed: [],
        rows: 0,
        migrations,
      };
      try {
        await addPartitions(w, targets, changed);
        for (const month of gone) {
          await w.transaction(async () => {
            for (const t of targets) if (t.partitioned === (month !== WHOLE)) await emptyMonth(w, t, month);
            await w.exec('forget_month', {}, [month]);
          });
          await recordMonthExports(run.store, settings.target.id, [], [month], run.runId);
          result.removed.push(month);
        }
        for (const m of changed) {
          const rows = await w.transaction(() => writeMonth(w, run, targets, m));
          await recordMonthExports(run.store, settings.target.id, [m], [], run.runId);
          result.replaced.push(m.month);
          result.rows += rows;
          run.onMonth?.(m.month, rows);
        }
      } catch (err) {
        const message = oneLine(redact((err as Error).message, settings.target.secrets));
        await w
          .exec('export_end', {}, [run.runId, 'failed', result.replaced, result.removed, result.rows, message])
          .catch(() => undefined);
        throw err;
      }
      await w.exec('export_end', {}, [run.runId, 'succeeded', result.replaced, result.removed, result.rows, null]);
      return result;
    } finally {
      await releaseSlices(run.source, slices).catch(() => undefined);
    }
  } finally {
    await w.close(); // ends the session: the schema's lock goes with it
  }
}

/** Dated months in order, then 'none', then the tables written whole (they reference the months' rows). */
const order = (month: string) => (month === WHOLE ? 2 : month === 'none' ? 1 : 0);

/** Each exported object's table in the schema, with the columns PostgreSQL declares (its migrations decide). */
async function targetTables(w: Warehouse, slices: readonly Slice[]): Promise<Target[]> {
  const rows = await w.select<{
    table_name: string;
    column_name: string;
    data_type: string;
    partitioned: boolean;
    keyed: boolean;
  }>('target_columns', [w.target.schema]);
  return slices.map((slice) => {
    const own = rows.filter((r) => r.table_name === slice.object.name);
    if (own.length === 0)
      throw new WarehouseRefusedError(
        `schema ${w.target.schema} of ${w.target.id} has no table ${slice.object.name}; its migrations did not run`,
      );
    const partitioned = own[0]!.partitioned;
    if (partitioned !== (slice.object.partitioning === 'month')) {
      throw new WarehouseRefusedError(
        `table ${w.target.schema}.${slice.object.name} is ${partitioned ? '' : 'not '}partitioned in ` +
          `${w.target.id}, unlike recon's schema`,
      );
    }
    return {
      slice,
      partitioned,
      keyed: own[0]!.keyed,
      columns: own.map((r) => ({ name: r.column_name, type: r.data_type })),
    };
  });
}

/** The partitions the months to write need and do not have yet, in one transaction. */
async function addPartitions(w: Warehouse, targets: readonly Target[], months: readonly MonthPrint[]): Promise<void> {
  const existing = new Set(
    (await w.select<{ partition_name: string }>('partitions', [w.target.schema])).map((r) => r.partition_name),
  );
  const wanted = targets
    .filter((t) => t.partitioned)
    .flatMap((t) =>
      months
        .filter(
          (m) =>
            m.month !== WHOLE &&
            (m.objects?.[t.slice.object.name] ?? 0) > 0 &&
            !existing.has(partitionName(t.slice.object.name, m.month)),
        )
        .map((m) => ({ t, month: m.month })),
    );
  if (wanted.length === 0) return;
  await w.transaction(async () => {
    for (const { t, month } of wanted) {
      const partition = sqlIdent(partitionName(t.slice.object.name, month));
      await w.exec('create_partition', { partition, table: sqlIdent(t.slice.object.name), month: sqlString(month) });
      if (!t.keyed) await w.exec('replica_identity_full', { partition });
    }
  });
}

async function emptyMonth(w: Warehouse, t: Target, month: string): Promise<void> {
  if (t.partitioned) await w.exec('delete_month', { table: sqlIdent(t.slice.object.name) }, [month]);
  else await w.exec('delete_all', { table: sqlIdent(t.slice.object.name) });
}

/** One month, inside its transaction: every object's rows of the month replaced, its fingerprint saved. */
async function writeMonth(
  w: Warehouse,
  run: PostgresExportRun,
  targets: readonly Target[],
  m: MonthPrint,
): Promise<number> {
  let rows = 0;
  for (const t of targets) {
    if (t.partitioned === (m.month === WHOLE)) continue;
    await emptyMonth(w, t, m.month);
    if ((m.objects?.[t.slice.object.name] ?? 0) === 0) continue;
    const line = copyLineExpression(t.columns, new Set(t.slice.columns), t.partitioned ? 't.__month' : null);
    const into = t.partitioned ? partitionName(t.slice.object.name, m.month) : t.slice.object.name;
    rows += await w.copyIn(
      into,
      t.columns.map((c) => c.name),
      (write) => streamLines(run.source, monthSliceSql(t.slice, line), [m.month], write),
    );
  }
  await w.exec('save_month', {}, [m.month, m.fingerprint, m.rows, run.runId]);
  await run.beforeCommit?.(m.month);
  return rows;
}
