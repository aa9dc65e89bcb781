// Which statements an accountant's `recon sql` runs: one per call, and only those that read. Everything
// that writes a file (COPY, EXPORT — into the snapshot's own folder DuckDB would allow them), loads code
// (INSTALL, LOAD), reaches another database (ATTACH, USE), changes settings (SET, PRAGMA, CALL) or state
// (INSERT, UPDATE, DELETE, transactions) is refused by its statement type, before it runs.
import { StatementType, type DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../errors.js';
import { queryFailed } from './errors.js';

/** SELECT (WITH, FROM, VALUES, PIVOT … IN, SUMMARIZE, DESCRIBE, SHOW …) and EXPLAIN. */
const READING = new Set<StatementType>([StatementType.SELECT, StatementType.EXPLAIN]);

const WHY: Array<[StatementType[], string]> = [
  [
    [StatementType.COPY, StatementType.EXPORT, StatementType.COPY_DATABASE],
    'COPY and EXPORT are refused: recon sql writes only the file --out names (--format csv|json|xlsx --out FILE)',
  ],
  [
    [StatementType.LOAD, StatementType.EXTENSION, StatementType.UPDATE_EXTENSIONS],
    "INSTALL and LOAD are refused: the session uses DuckDB's built-in functions only",
  ],
  [
    [StatementType.ATTACH, StatementType.DETACH],
    'ATTACH and DETACH are refused: the session reads the published snapshot only',
  ],
  [
    [StatementType.CREATE],
    'CREATE is refused: one statement runs per call, so a temporary table or view would be gone before it is used; ' +
      'write it as WITH name AS (…) SELECT …',
  ],
  [
    [StatementType.SET, StatementType.VARIABLE_SET, StatementType.PRAGMA, StatementType.CALL],
    "SET, PRAGMA and CALL are refused: the session's settings are fixed (query pragma_* and duckdb_* table " +
      "functions with SELECT instead)",
  ],
];

const READ_ONLY = 'the snapshot is read-only; recon sql runs queries (SELECT, WITH, FROM, EXPLAIN, PIVOT …)';
/** DuckDB's binder errors for a write to a view (DELETE, UPDATE, TRUNCATE; INSERT). */
const WRITE_TO_VIEW = /Can only (delete from|update) base table|is not an? table/i;

type StatementKind = 'select' | 'other';

/** One statement that reads, or a UsageError saying why not. 'select' results can be materialised first (query.ts). */
export async function checkStatement(c: DuckDBConnection, sql: string): Promise<StatementKind> {
  let extracted;
  try {
    extracted = await c.extractStatements(sql);
  } catch (err) {
    throw queryFailed(err);
  }
  if (extracted.count === 0) throw new UsageError('empty query');
  if (extracted.count > 1) {
    throw new UsageError(`one statement per call, got ${extracted.count}; run them one by one `
      + `(a PIVOT without an IN list counts as two: name its values, ON currency IN ('EUR', 'USD'))`);
  }
  let type: StatementType;
  try {
    const prepared = await extracted.prepare(0);
    type = prepared.statementType;
    prepared.destroySync();
  } catch (err) {
    // the snapshot's large tables are views over its month files: DuckDB refuses a write to one while
    // binding, before the statement has a type; the accountant is told what any write is told
    if (WRITE_TO_VIEW.test(err instanceof Error ? err.message : String(err))) throw new UsageError(READ_ONLY);
    throw queryFailed(err);
  }
  if (!READING.has(type)) {
    const why = WHY.find(([types]) => types.includes(type))?.[1]
      ?? `${StatementType[type] ?? 'this statement'} is refused: ${READ_ONLY}`;
    throw new UsageError(why);
  }
  return type === StatementType.SELECT ? 'select' : 'other';
}
