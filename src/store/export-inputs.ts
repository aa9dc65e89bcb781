// What the Parquet export fingerprints, so that it rewrites only the months that changed without reading the
// months that did not. The large tables' months come fingerprinted from the snapshot (snapshot_files). A
// finance view computed month by month (reconciliation, monthly_summary, finding_groups: a row of month m is
// made only of month m's rows of the large tables) is fingerprinted by its inputs: month m's fingerprints of
// the large tables it reads, and the small tables it reads whole. `findings` changes every night (last_seen
// of every open finding); a view that reads only its state is fingerprinted on the findings of the month's
// disbursements without the columns a night touches, and one that reads those columns on the whole table.
import type { DuckDBConnection } from '@duckdb/node-api';
import { readThrough, sqlObjects, withoutComments, reads } from './objects.js';
import { sqlIdent } from './sql-text.js';
import { fingerprintOf } from './month-fingerprint.js';

/** The columns of `findings` a night rewrites for every finding still seen (sql/lifecycle/update_seen.sql). */
const NIGHTLY_FINDING_COLUMNS = ['last_seen', 'last_run_id'];

/** SQL that reads the clock: a view using it changes with the day, whatever its inputs. */
const CLOCK = /\b(now|current_date|current_timestamp|today|get_current_time|get_current_timestamp)\b/i;

interface ViewInputs {
  /** Large tables (cut by month) the view reads. */
  monthly: string[];
  /** Small tables read whole. */
  whole: string[];
  /** Reads findings' state only: fingerprinted per month without the nightly columns. */
  findingsByMonth: boolean;
  /** Reads the clock: its rows may change with nothing else. */
  clock: boolean;
}

/** The base tables a view reads, directly or through the views and macros it is built on (sql/ objects). */
export async function viewInputs(
  view: string, tables: readonly string[], monthlyTables: readonly string[],
): Promise<ViewInputs> {
  const objects = await sqlObjects();
  const own = objects.find((o) => o.name === view);
  if (!own) throw new Error(`${view} is not one of recon's views`);
  const names = readThrough(objects, own.sql);
  names.add(view);
  const code = objects.filter((o) => names.has(o.name)).map((o) => withoutComments(o.sql)).join('\n');
  const read = tables.filter((t) => reads(code, t));
  const findingsByMonth = read.includes('findings') && !NIGHTLY_FINDING_COLUMNS.some((col) => reads(code, col));
  return {
    monthly: read.filter((t) => monthlyTables.includes(t)),
    whole: read.filter((t) => !monthlyTables.includes(t) && !(findingsByMonth && t === 'findings')),
    findingsByMonth,
    clock: CLOCK.test(code),
  };
}

/** Each small table's fingerprint over every row (they are small: runs, closes, settings …). */
export async function wholeFingerprints(c: DuckDBConnection, tables: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const t of tables) {
    const [n, digest] = (await c.runAndReadAll(
      `SELECT count(*), CAST(sum(hash(t)) AS VARCHAR) FROM ${sqlIdent(t)} AS t`)).getRows()[0]!;
    out.set(t, fingerprintOf(await layoutOf(c, t), t, String(n), String(digest)));
  }
  return out;
}

/**
 * findings per month of their disbursement ('none' without one), without the nightly columns. `months`
 * maps each disbursement to its month (a temp table of the caller's).
 */
export async function findingsByMonth(c: DuckDBConnection, months: string): Promise<Map<string, string>> {
  const columns = (await c.runAndReadAll(`SELECT column_name FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'findings'
    ORDER BY column_index`)).getRows().map((r) => String(r[0])).filter((col) => !NIGHTLY_FINDING_COLUMNS.includes(col));
  const hashed = columns.map((col) => `f.${sqlIdent(col)}`).join(', ');
  const rows = (await c.runAndReadAll(`SELECT coalesce(m.month, 'none'), count(*), CAST(sum(hash(${hashed})) AS VARCHAR)
    FROM findings AS f LEFT JOIN ${months} AS m ON m.disbursement_id = f.disbursement_id GROUP BY ALL`)).getRows();
  return new Map(rows.map(([month, n, digest]) =>
    [String(month), fingerprintOf(columns.join(','), 'findings', String(n), String(digest))]));
}

async function layoutOf(c: DuckDBConnection, table: string): Promise<string> {
  const rows = (await c.runAndReadAll(`SELECT column_name, data_type FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name = 'main' AND table_name = $1
    ORDER BY column_index`, [table])).getRows();
  return JSON.stringify(rows);
}
