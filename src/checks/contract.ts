// The contract every sql/checks/<check_id>.sql honours: one SELECT returning exactly these columns, in
// this order. The file name is the check id (STYLE.md: one SQL file per object).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBTypeId, type DuckDBConnection } from '@duckdb/node-api';
import { SQL_DIR } from '../paths.js';
import { CheckFileError } from './errors.js';

export const CHECK_COLUMNS = [
  'check_id',
  'severity',
  'disbursement_id',
  'recipient_id',
  'subject',
  'currency',
  'expected',
  'actual',
  'difference',
  'detail',
] as const;

export const DEFAULT_CHECKS_DIR = path.join(SQL_DIR, 'checks');

/** Check ids end up as SQL literals and workbook labels: keep them plain. */
const CHECK_ID = /^[a-z][a-z0-9_]*$/;

const MONEY_COLUMNS = new Set(['expected', 'actual', 'difference']);
const INTEGER_TYPES = new Set<DuckDBTypeId>([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.SQLNULL,
]);

export interface CheckFile {
  id: string;
  file: string;
  /** The SELECT, without a trailing semicolon, ready to be wrapped in INSERT … SELECT … FROM (…). */
  sql: string;
}

/** The check files of dir, sorted by id; `only` restricts them and must name existing checks. */
export async function loadChecks(dir: string = DEFAULT_CHECKS_DIR, only?: readonly string[]): Promise<CheckFile[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.sql')).sort();
  const ids = names.map((n) => n.slice(0, -'.sql'.length));
  if (only) {
    const unknown = only.filter((id) => !ids.includes(id));
    if (unknown.length > 0) {
      throw new CheckFileError(unknown.join(', '), dir, `no such check; available: ${ids.join(', ')}`);
    }
  }
  const wanted = only ? ids.filter((id) => only.includes(id)) : ids;
  return Promise.all(
    wanted.map(async (id) => {
      const file = path.join(dir, `${id}.sql`);
      if (!CHECK_ID.test(id)) {
        throw new CheckFileError(id, file, 'a check file name must be lower-case letters, digits and _');
      }
      const text = await readFile(file, 'utf8');
      const sql = text.trim().replace(/;\s*$/, '');
      if (sql === '') throw new CheckFileError(id, file, 'the file is empty');
      return { id, file, sql };
    }),
  );
}

/**
 * Bind the check without running it and verify its columns: exact names and order, integer money.
 * Throws CheckFileError naming the file, with DuckDB's own message when the SQL does not bind.
 */
export async function validateCheckColumns(connection: DuckDBConnection, check: CheckFile): Promise<void> {
  let prepared;
  try {
    prepared = await connection.prepare(check.sql);
  } catch (err) {
    throw new CheckFileError(check.id, check.file, `the SQL does not run: ${(err as Error).message}`, { cause: err });
  }
  try {
    const names: string[] = [];
    for (let i = 0; i < prepared.columnCount; i += 1) names.push(prepared.columnName(i));
    if (names.join(',') !== CHECK_COLUMNS.join(',')) {
      throw new CheckFileError(
        check.id,
        check.file,
        `must return exactly the columns ${CHECK_COLUMNS.join(', ')} (in this order); it returns ${names.join(', ')}`,
      );
    }
    names.forEach((name, i) => {
      if (MONEY_COLUMNS.has(name) && !INTEGER_TYPES.has(prepared.columnTypeId(i))) {
        throw new CheckFileError(
          check.id,
          check.file,
          `column ${name} must be integer subunits (BIGINT) or NULL, not ${prepared.columnType(i).toString()}`,
        );
      }
    });
  } finally {
    prepared.destroySync();
  }
}
