// The store cut into months for an export that rewrites only what changed (the PostgreSQL export today;
// the Parquet export can take the same slices). Every exported table or view has a month rule: a
// disbursement's rows (its lines, files, history) belong to the month of its delivery, a check run's
// exceptions to the month of the run, a bank entry to the month of its booking, monthly_summary to its own
// month; the rest is written whole (month '*'). Months are the books' (month_of: --books-tz of the close,
// UTC until a close says otherwise), so a month here is the month monthly_summary and the close count.
// A row without a month (a disbursement without delivered_at, a bank entry without dates) is in 'none'.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlIdent } from './sql-text.js';

/** Where an object's rows go: a month each, or all of them together. */
type Partitioning = 'month' | 'whole';

interface MonthlyObject {
  name: string;
  kind: 'table' | 'view';
  partitioning: Partitioning;
  /** FROM clause over the object as `t`, and the month expression over it. */
  from: string;
  month: string;
}

/** The month of the books of each disbursement, computed once per export (temp table). */
const DISBURSEMENT_MONTHS = '__recon_disbursement_month';

const own = (name: string, kind: MonthlyObject['kind'], month: string): MonthlyObject =>
  ({ name, kind, partitioning: 'month', from: `${sqlIdent(name)} AS t`, month: `coalesce(${month}, 'none')` });
const ofDisbursement = (name: string, fallback = 'NULL'): MonthlyObject => ({
  name, kind: 'table', partitioning: 'month',
  from: `${sqlIdent(name)} AS t LEFT JOIN ${DISBURSEMENT_MONTHS} AS m ON m.disbursement_id = t.disbursement_id`,
  month: `coalesce(m.month, ${fallback}, 'none')`,
});
const whole = (name: string, kind: MonthlyObject['kind'] = 'table'): MonthlyObject =>
  ({ name, kind, partitioning: 'whole', from: `${sqlIdent(name)} AS t`, month: `'*'` });

/**
 * What an export writes, in the order a month writes it. The views are the finance views accountants
 * read (docs: README, "The store"), computed once per export and cut like the tables they show.
 */
export const MONTHLY_OBJECTS: readonly MonthlyObject[] = [
  own('disbursements', 'table', 'month_of(t.delivered_at)'),
  ofDisbursement('payouts'),
  ofDisbursement('refunds'),
  ofDisbursement('adjustments'),
  ofDisbursement('disbursement_files'),
  ofDisbursement('file_lines'),
  ofDisbursement('disbursement_history', 'month_of(t.delivered_at)'),
  own('exceptions', 'table', 'month_of(t.created_at)'),
  own('bank_transactions', 'table', "strftime(coalesce(t.booking_date, t.value_date), '%Y-%m')"),
  own('reconciliation', 'view', 'month_of(t.delivered_at)'),
  own('monthly_summary', 'view', 't.month'),
  own('bank_status', 'view', 'month_of(t.delivered_at)'),
  {
    // one row per exception: the month of the check run that found it
    name: 'finding_groups', kind: 'view', partitioning: 'month',
    from: 'finding_groups AS t LEFT JOIN exceptions AS e ON e.run_id = t.run_id AND e.finding_key = t.finding_key',
    month: "coalesce(month_of(e.created_at), 'none')",
  },
  whole('runs'),
  whole('findings'),
  whole('finding_acks'),
  whole('closes'),
  whole('close_disbursements'),
  whole('quarantine'),
  whole('bank_refusals'),
  whole('payment_samples'),
  whole('open_exceptions', 'view'),
  whole('acknowledgements', 'view'),
];

/** The month every row of the objects written whole is given. */
export const WHOLE = '*';

/** An object ready to be cut: the relation (with its month as __month) and its columns in the store. */
export interface Slice {
  object: MonthlyObject;
  relation: string;
  columns: string[];
}

/**
 * Prepares the slices on `c` (the published snapshot, read-only: only temp tables are made): each
 * disbursement's month once, each view computed once into a temp table, so cutting twelve months reads a
 * view once rather than twelve times.
 */
export async function prepareSlices(
  c: DuckDBConnection,
  objects: readonly MonthlyObject[] = MONTHLY_OBJECTS,
): Promise<Slice[]> {
  await c.run(`CREATE OR REPLACE TEMP TABLE ${DISBURSEMENT_MONTHS} AS
    SELECT disbursement_id, month_of(delivered_at) AS month FROM disbursements`);
  const columns = await storeColumns(c);
  const slices: Slice[] = [];
  for (const object of objects) {
    const cols = columns.get(object.name);
    if (!cols) throw new Error(`the store has no table or view ${object.name}`);
    const select = `SELECT t.*, ${object.month} AS __month FROM ${object.from}`;
    if (object.kind === 'view') {
      const temp = `__recon_slice_${object.name}`;
      await c.run(`CREATE OR REPLACE TEMP TABLE ${temp} AS ${select}`);
      slices.push({ object, relation: temp, columns: cols });
    } else {
      slices.push({ object, relation: `(${select})`, columns: cols });
    }
  }
  return slices;
}

/** Drops what prepareSlices made (the session ends soon anyway; a long one should not keep them). */
export async function releaseSlices(c: DuckDBConnection, slices: readonly Slice[]): Promise<void> {
  for (const s of slices) if (s.object.kind === 'view') await c.run(`DROP TABLE IF EXISTS ${s.relation}`);
  await c.run(`DROP TABLE IF EXISTS ${DISBURSEMENT_MONTHS}`);
}

async function storeColumns(c: DuckDBConnection): Promise<Map<string, string[]>> {
  const rows = (
    await c.runAndReadAll(`SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = 'main' AND table_catalog = current_database() ORDER BY table_name, ordinal_position`)
  ).getRows();
  const out = new Map<string, string[]>();
  for (const [table, column] of rows) {
    const list = out.get(String(table)) ?? [];
    list.push(String(column));
    out.set(String(table), list);
  }
  return out;
}

/** `SELECT <select> FROM <the slice> AS t WHERE t.__month = $1`: one month of one object. */
export function monthSliceSql(slice: Slice, select: string): string {
  return `SELECT ${select} FROM ${slice.relation} AS t WHERE t.__month = $1`;
}

/** Per month: rows and an order-free digest of the given columns (a sum of row hashes, so no sort). */
export function monthDigestSql(slice: Slice, columns: readonly string[]): string {
  const hashed = columns.length > 0 ? columns.map((c) => `t.${sqlIdent(c)}`).join(', ') : "''";
  return `SELECT t.__month, count(*), CAST(sum(hash(${hashed})) AS VARCHAR) FROM ${slice.relation} AS t GROUP BY t.__month`;
}
