// A month's fingerprint: what an export compares to decide whether a month must be written again. It
// covers every row of the month in every exported table and view (month-slices.ts), the columns written
// and how they are written (the `layout` text the caller gives), so a restated disbursement, a finding
// that changed state or a new column each change the months they touch and nothing else. Computed from
// row hashes summed per month: no sort, one scan per object. DuckDB's hash may differ across versions;
// then every month looks changed once and is written again, never skipped.
import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { monthDigestSql, type Slice } from './month-slices.js';
import { inTransaction } from './transaction.js';

/** Bumped when the way a fingerprint is made changes (every month is then written again). */
const ALGORITHM = 'recon-month-v1';

export interface MonthPrint {
  month: string;
  fingerprint: string;
  rows: number;
  /** Rows of each object in the month (objects without any left out). */
  objects?: Record<string, number>;
}

/** The columns of each object the export writes, by object name (what the fingerprint must cover). */
type CoveredColumns = ReadonlyMap<string, readonly string[]>;

/** Every month's fingerprint, months in order ('none' and '*' sort apart from the dates, as text does). */
export async function monthFingerprints(
  c: DuckDBConnection,
  slices: readonly Slice[],
  covered: CoveredColumns,
  layout: string,
): Promise<MonthPrint[]> {
  const parts = new Map<string, { text: string[]; rows: number; objects: Record<string, number> }>();
  for (const slice of slices) {
    const columns = covered.get(slice.object.name) ?? slice.columns;
    for (const { month, rows, digest } of await objectMonthDigests(c, slice, columns)) {
      const part = parts.get(month) ?? { text: [], rows: 0, objects: {} };
      part.text.push(`${slice.object.name}:${rows}:${digest}`);
      part.rows += rows;
      part.objects[slice.object.name] = rows;
      parts.set(month, part);
    }
  }
  const salt = createHash('sha256').update(ALGORITHM).update('\0').update(layout).digest('hex');
  return [...parts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([month, p]) => ({
      month,
      rows: p.rows,
      objects: p.objects,
      fingerprint: createHash('sha256').update(salt).update('\0').update(p.text.join('\n')).digest('hex'),
    }));
}

/** One object's rows per month and an order-free digest of the given columns (one scan, no sort). */
export async function objectMonthDigests(
  c: DuckDBConnection, slice: Slice, columns: readonly string[],
): Promise<Array<{ month: string; rows: number; digest: string }>> {
  const rows = (await c.runAndReadAll(monthDigestSql(slice, columns))).getRows();
  return rows.map(([month, count, sum]) => ({ month: String(month), rows: Number(count), digest: String(sum) }));
}

/** A fingerprint of `parts`, salted with what the rows are written as (sha256, hex). */
export function fingerprintOf(salt: string, ...parts: ReadonlyArray<string | number>): string {
  const hash = createHash('sha256').update(ALGORITHM).update('\0').update(salt);
  for (const p of parts) hash.update('\0').update(String(p));
  return hash.digest('hex');
}

/**
 * Records what `target` now holds: `written` months replaced (or added), `removed` months gone. Called
 * once the target has committed them; a crash before this leaves the store behind the target, which the
 * next export corrects (it asks the target, not the store, what it holds).
 */
export async function recordMonthExports(
  c: DuckDBConnection,
  target: string,
  written: readonly MonthPrint[],
  removed: readonly string[],
  runId: string,
  at: Date = new Date(),
): Promise<void> {
  if (written.length === 0 && removed.length === 0) return;
  await inTransaction(c, async () => {
    for (const month of removed)
      await c.run('DELETE FROM month_exports WHERE target = $1 AND month = $2', [target, month]);
    for (const m of written) {
      await c.run(
        `INSERT INTO month_exports VALUES ($1, $2, $3, $4, $5::TIMESTAMPTZ, $6)
        ON CONFLICT (target, month) DO UPDATE SET fingerprint = excluded.fingerprint, rows = excluded.rows,
          exported_at = excluded.exported_at, run_id = excluded.run_id`,
        [target, m.month, m.fingerprint, m.rows, at.toISOString(), runId],
      );
    }
  });
}
