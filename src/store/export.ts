// `recon export --parquet DIR`: every table of the published snapshot and its finance views as Parquet, by
// month of the books (month-slices.ts: <dir>/<name>/month=YYYY-MM/<export id>.parquet, rows without a month in
// Hive's null partition, the small tables whole: <dir>/<name>/<export id>.parquet). An export writes only the
// months whose fingerprint changed since the one before (export-inputs.ts): a large table's month is copied
// from the snapshot's own month file, a finance view's month is computed from that month's rows alone. Values
// are exact (parquet-columns.ts: money BIGINT, sums DECIMAL(38,0)). The manifest (export-files.ts) is written
// last and names every file; readers follow it and never see two exports mixed.
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ReconError } from '../errors.js';
import { makeFolder, WriteError } from '../files.js';
import { MONTHLY_OBJECTS, prepareSlices, releaseSlices, WHOLE, type Slice } from './month-slices.js';
import { objectMonthDigests, fingerprintOf } from './month-fingerprint.js';
import { objectsDigest } from './objects.js';
import {
  columnsOf, copyToParquet, parquetColumns, parquetType, readSelect, writeList, type Column,
} from './parquet-columns.js';
import { PART_TABLES } from './snapshot-parts.js';
import { sqlIdent, sqlString } from './sql-text.js';
import { hasTable } from './sql.js';
import { findingsByMonth, viewInputs, wholeFingerprints } from './export-inputs.js';
import {
  copyInto, currentManifest, dropJournal, filePath, filesOf, lockExportFolder, previousManifest, publishManifest,
  removeFile, removeUnfinished, removeUnversioned, syncAll, writeJournal, FORMAT,
  type ExportFile, type Manifest, type ManifestObject,
} from './export-files.js';

/**
 * The finance views a row of month m of which is made of month m's rows only (a disbursement with its lines
 * and findings; a check run's exceptions), computed month by month. test/unit/store/export-parquet.test.ts
 * holds each to the whole view. bank_status is not: a credit of one month may settle a disbursement of the
 * month before, so it is computed whole and written by the months whose rows changed.
 */
const MONTH_LOCAL = new Set(['reconciliation', 'monthly_summary', 'finding_groups', 'payment_lines']);
/** Not exported: the live store's own bookkeeping (empty in the snapshot) and the snapshot's local paths. */
const LEFT_OUT = new Set(['archived_disbursements', 'archived_line_keys', 'snapshot_files', 'snapshot_info']);

interface ExportedObject {
  name: string;
  kind: 'table' | 'view';
  partitioned: boolean;
  rows: number;
  files: number;
  /** Files this export wrote (the others are the previous export's, unchanged). */
  written: number;
}

export interface ParquetExport {
  exportId: string;
  manifest: string;
  objects: ExportedObject[];
  filesWritten: number;
  bytesWritten: number;
  filesRemoved: number;
}

export interface ExportOptions {
  now?: () => Date;
  /** Called once every file is written, before the manifest moves (tests read the folder then). */
  beforeManifest?: () => Promise<void>;
}

interface SnapshotPart { object: string; month: string; file: string; rows: number; fingerprint: string }

export async function exportParquet(
  c: DuckDBConnection, dir: string, opts: ExportOptions = {},
): Promise<ParquetExport> {
  const root = path.resolve(dir);
  const unlock = await lockExportFolder(root).catch((err: unknown) => {
    throw err instanceof ReconError ? err : new WriteError(dir, '--parquet', err);
  });
  const now = opts.now ?? (() => new Date());
  const id = `e${now().getTime().toString(36)}-${randomUUID().slice(0, 6)}`;
  const run = new ExportRun(c, root, id, await currentManifest(root));
  try {
    const older = await previousManifest(root);
    await removeUnfinished(root, new Set([...filesOf(run.previous), ...filesOf(older)]));
    const objects = await run.objects();
    await syncAll(root, run.written);
    await opts.beforeManifest?.();
    const manifest: Manifest = {
      format: FORMAT, export_id: id, exported_at: now().toISOString(), ...(await run.about()), objects,
    };
    await publishManifest(root, manifest, run.previous);
    await dropJournal(root, id);
    // the files an export of recon's wrote before exports were versioned (data_0.parquet …) go with the first
    // manifest: a reader listing the folder would find them beside the manifest's
    let removed = run.previous ? 0 : await removeUnversioned(root, Object.keys(objects));
    // the export before the previous one: its files no manifest names any more go
    const named = new Set([...filesOf(manifest), ...filesOf(run.previous)]);
    for (const f of filesOf(older)) if (!named.has(f)) removed += await removeFile(root, f);
    return {
      exportId: id, manifest: path.join(root, 'manifest.json'), filesWritten: run.written.length,
      bytesWritten: run.bytes, filesRemoved: removed,
      objects: Object.entries(objects).map(([name, o]) => ({
        name, kind: o.kind, partitioned: o.partitioned, rows: o.files.reduce((s, f) => s + f.rows, 0),
        files: o.files.length, written: o.files.filter((f) => f.path.includes(id)).length,
      })),
    };
  } catch (err) {
    for (const f of run.written) await removeFile(root, f);
    await dropJournal(root, id).catch(() => undefined);
    throw err instanceof ReconError ? err : new WriteError(dir, '--parquet', err);
  } finally {
    await unlock();
  }
}

class ExportRun {
  readonly written: string[] = [];
  bytes = 0;
  private catalog = '';

  constructor(
    private readonly c: DuckDBConnection, private readonly root: string, private readonly id: string,
    readonly previous: Manifest | null,
  ) {}

  async about(): Promise<Pick<Manifest, 'snapshot_generation' | 'snapshot_run_id' | 'books_tz'>> {
    const one = async (sql: string) =>
      (await this.c.runAndReadAll(sql).then((r) => r.getRows()[0]?.[0]).catch(() => null)) ?? null;
    const generation = await one('SELECT generation FROM snapshot_info');
    const run = await one(`SELECT run_id FROM runs WHERE status = 'succeeded'
      ORDER BY finished_at DESC NULLS LAST LIMIT 1`);
    return {
      snapshot_generation: generation === null ? null : String(generation),
      snapshot_run_id: run === null ? null : String(run),
      books_tz: String(await one('SELECT books_tz()') ?? 'UTC'),
    };
  }

  async objects(): Promise<Record<string, ManifestObject>> {
    this.catalog = String((await this.c.runAndReadAll('SELECT current_database()')).getRows()[0]![0]);
    const parts = await snapshotParts(this.c);
    const tables = (await this.c.runAndReadAll(`SELECT table_name FROM duckdb_tables()
      WHERE database_name = current_database() AND schema_name = 'main' ORDER BY table_name`))
      .getRows().map((r) => String(r[0]));
    const whole = tables.filter((t) => !PART_TABLES.includes(t) && !LEFT_OUT.has(t));
    const wholePrints = await wholeFingerprints(this.c, whole);
    const out: Record<string, ManifestObject> = {};
    if (parts) for (const t of PART_TABLES) out[t] = await this.partTable(t, parts.filter((p) => p.object === t));
    // a snapshot published before month files: its large tables and every view are cut here, read whole
    const computed = MONTHLY_OBJECTS.filter((o) => (o.kind === 'view' && (!parts || !MONTH_LOCAL.has(o.name)))
      || (!parts && PART_TABLES.includes(o.name)));
    for (const [name, o] of Object.entries(await this.byDigest(computed))) out[name] = o;
    for (const t of whole) out[t] = await this.wholeTable(t, wholePrints.get(t)!);
    if (parts) for (const v of MONTH_LOCAL) out[v] = await this.monthLocalView(v, parts, tables, wholePrints);
    return out;
  }

  /** A large table: each month copied from the snapshot's month file unless the previous export has it. */
  private async partTable(table: string, parts: readonly SnapshotPart[]): Promise<ManifestObject> {
    const columns = await columnsOf(this.c, table);
    const files: ExportFile[] = [];
    for (const month of [...new Set(parts.map((p) => p.month))].sort()) {
      const mine = parts.filter((p) => p.month === month);
      const fingerprint = mine.length === 1
        ? mine[0]!.fingerprint : fingerprintOf('', ...mine.map((p) => p.fingerprint).sort());
      files.push(await this.file(table, month, fingerprint, async (target) => {
        if (mine.length === 1) return copyInto(mine[0]!.file, target);
        const sources = mine.map((p) => p.file);
        const read = readSelect(columns, sources, await parquetColumns(this.c, sources));
        await copyToParquet(this.c, `SELECT ${writeList(columns)} FROM (${read}) AS t`, target);
      }));
    }
    return { kind: 'table', partitioned: true, columns: written(columns), files };
  }

  private async wholeTable(table: string, fingerprint: string): Promise<ManifestObject> {
    const columns = await columnsOf(this.c, table);
    const file = await this.file(table, null, fingerprint, (target) =>
      copyToParquet(this.c, `SELECT ${writeList(columns)} FROM ${sqlIdent(table)} AS t`, target));
    return { kind: 'table', partitioned: false, columns: written(columns), files: [file] };
  }

  /** Objects computed whole on the snapshot (month-slices.ts), each month written when its rows' digest changed. */
  private async byDigest(objects: typeof MONTHLY_OBJECTS): Promise<Record<string, ManifestObject>> {
    const out: Record<string, ManifestObject> = {};
    const slices = await prepareSlices(this.c, objects);
    try {
      for (const slice of slices) out[slice.object.name] = await this.sliced(slice);
    } finally {
      await releaseSlices(this.c, slices).catch(() => undefined);
    }
    return out;
  }

  private async sliced(slice: Slice): Promise<ManifestObject> {
    const { name, kind, partitioning } = slice.object;
    const columns = (await columnsOf(this.c, name))
      .filter((col) => !(partitioning === 'month' && col.name === 'month'));
    const salt = JSON.stringify(columns);
    const files: ExportFile[] = [];
    const digests = await objectMonthDigests(this.c, slice, columns.map((col) => col.name));
    for (const m of digests.sort((a, b) => (a.month < b.month ? -1 : 1))) {
      const month = m.month === WHOLE ? null : m.month;
      const where = `t.__month = ${sqlString(m.month)}`;
      files.push(await this.file(name, month, fingerprintOf(salt, name, m.month, m.rows, m.digest), (target) =>
        copyToParquet(this.c, `SELECT ${writeList(columns)} FROM ${slice.relation} AS t WHERE ${where}`, target)));
    }
    return { kind, partitioned: partitioning === 'month', columns: written(columns), files };
  }

  /**
   * A view whose month m is made of month m's rows alone: fingerprinted by those inputs, and computed with the
   * large tables narrowed to that month (temporary views of the same names shadow them: unqualified names
   * resolve to the temp catalog first, src/store/materialise.ts).
   */
  private async monthLocalView(view: string, all: readonly SnapshotPart[], tables: readonly string[],
    wholePrints: ReadonlyMap<string, string>): Promise<ManifestObject> {
    const inputs = await viewInputs(view, [...new Set([...tables, ...PART_TABLES])], PART_TABLES);
    const columns = (await columnsOf(this.c, view)).filter((col) => col.name !== 'month');
    const anchor = inputs.monthly.includes('disbursements') ? 'disbursements' : inputs.monthly[0];
    const months = [...new Set(all.filter((p) => p.object === anchor).map((p) => p.month))].sort();
    const findings = inputs.findingsByMonth ? await this.findingsMonths() : new Map<string, string>();
    // a view that reads the clock is never taken from the export before (its rows may change with the day)
    const base = [await objectsDigest(this.c), view, JSON.stringify(columns), inputs.clock ? this.id : '',
      ...inputs.whole.map((t) => `${t}:${wholePrints.get(t) ?? '-'}`)];
    const files: ExportFile[] = [];
    const printOf = (t: string, month: string) => all.filter((p) => p.object === t && p.month === month)
      .map((p) => p.fingerprint).sort().join('+');
    for (const month of months) {
      const prints = inputs.monthly.map((t) => `${t}:${printOf(t, month)}`);
      const ofFindings = inputs.findingsByMonth ? `findings:${findings.get(month) ?? '-'}` : '';
      const fingerprint = fingerprintOf(base.join('\n'), month, ...prints, ofFindings);
      files.push(await this.file(view, month, fingerprint, async (target) => {
        await this.shadow(inputs.monthly, all.filter((p) => p.month === month));
        try {
          const whole = `${sqlIdent(this.catalog)}.main.${sqlIdent(view)}`;
          await copyToParquet(this.c, `SELECT ${writeList(columns)} FROM ${whole} AS t`, target);
        } finally {
          for (const t of inputs.monthly) await this.c.run(`DROP VIEW IF EXISTS temp.main.${sqlIdent(t)}`);
        }
      }));
    }
    return { kind: 'view', partitioned: true, columns: written(columns), files };
  }

  private async shadow(tables: readonly string[], parts: readonly SnapshotPart[]): Promise<void> {
    for (const t of tables) {
      const files = parts.filter((p) => p.object === t).map((p) => p.file);
      const select = files.length > 0
        ? readSelect(await columnsOf(this.c, t, this.catalog), files, await parquetColumns(this.c, files))
        : `SELECT * FROM ${sqlIdent(this.catalog)}.main.${sqlIdent(t)} WHERE false`;
      await this.c.run(`CREATE OR REPLACE TEMP VIEW ${sqlIdent(t)} AS ${select}`);
    }
  }

  /** findings by the month of their disbursement, as the snapshot's month files place the disbursements. */
  private async findingsMonths(): Promise<Map<string, string>> {
    await this.c.run(`CREATE OR REPLACE TEMP TABLE __recon_export_months AS
      SELECT disbursement_id, coalesce(month_of(delivered_at), 'none') AS month FROM disbursements`);
    try {
      return await findingsByMonth(this.c, '__recon_export_months');
    } finally {
      await this.c.run('DROP TABLE IF EXISTS __recon_export_months');
    }
  }

  /** The previous export's file when its fingerprint is the same and it is still there, else one `write` makes. */
  private async file(
    object: string, month: string | null, fingerprint: string, write: (target: string) => Promise<void>,
  ): Promise<ExportFile> {
    const old = this.previous?.objects[object]?.files.find((f) => f.month === month && f.fingerprint === fingerprint);
    if (old && (await stat(path.join(this.root, ...old.path.split('/'))).then(() => true, () => false))) return old;
    const rel = filePath(object, month, this.id);
    await writeJournal(this.root, this.id, [...this.written, rel]);
    this.written.push(rel);
    const abs = path.join(this.root, ...rel.split('/'));
    await makeFolder(path.dirname(abs));
    await write(abs);
    const bytes = (await stat(abs)).size;
    this.bytes += bytes;
    const rows = Number((await this.c.runAndReadAll(`SELECT count(*) FROM read_parquet(${sqlString(abs)})`))
      .getRows()[0]![0]);
    return { path: rel, month, rows, bytes, fingerprint };
  }
}

const written = (columns: readonly Column[]) =>
  columns.map((col) => ({ name: col.name, type: parquetType(col.type) }));

/** The snapshot's month files (null for a snapshot published before them: its large tables are cut here). */
async function snapshotParts(c: DuckDBConnection): Promise<SnapshotPart[] | null> {
  if (!(await hasTable(c, 'snapshot_files'))) return null;
  return (await c.runAndReadAll('SELECT object, month, file, rows, fingerprint FROM snapshot_files')).getRows()
    .map(([object, month, file, rows, fingerprint]) => ({
      object: String(object), month: String(month), file: String(file), rows: Number(rows),
      fingerprint: String(fingerprint),
    }));
}
