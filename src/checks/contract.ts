// The contract every sql/checks/<check_id>.sql honours: a header that says what the check is, then one
// SELECT returning its rows: exactly these columns, in this order. The file name is the check id, and the
// runner gives every row the id and the header's severity (one SQL file per object; a check carries its own
// words, as dbt's tests do); a check whose header says "error or warning" returns a `severity` column
// first, chosen per row:
//
//   -- check: total_identity                       the file name
//   -- severity: error                             error, warning, or "error or warning" (chosen per row)
//   -- title: Total ≠ its lines                    a few words (README, mail)
//   -- meaning: The disbursement total is not …    one sentence an accountant can act on (Checks sheet)
//   -- next step: Ask the provider which line …    what to do about it (Checks sheet)
//   -- uses: line_count(kind = payout)             optional: the SELECT is sql/checks/generic/line_count.sql
//   -- requires: bank_transactions                 optional: tables without whose rows the check finds
//                                                  nothing; a run where one is empty skips it (0 rows)
//   -- scope: disbursement                         optional: what a finding depends on, so that a night
//                                                  checks only what changed (src/checks/scope.ts); `all`
//                                                  when left out
//
// A value runs on over lines that start with `--` and two spaces or more. The header ends at the first
// other line; the rest is the check's own comment and SQL.
//
// The scope is a promise about the check's SELECT, and a night keeps it: the findings outside what the
// night re-checks are carried forward unchanged (keys, states, numbers), so a wrong promise is a finding
// kept or missed. `recon check --full` runs every check on everything; test/unit/checks/incremental.test.ts
// holds the two to the same findings.
//   all            the default: run on the whole store every night (safe for any check; the bank checks,
//                  whose matching ties credits and disbursements across windows and the provider's
//                  names across the history, and the cheap ones over disbursements alone)
//   disbursement   each finding belongs to one disbursement (or to none: quarantine rows of no stored
//                  disbursement) and depends only on that disbursement's rows in the tables the check reads
//                  (its record, lines, files, file lines, quarantine rows, history, payment samples, close
//                  rows). Re-checked: the disbursements any of whose rows a run wrote since the last check
//                  run (a close: every disbursement of its month), and those of open findings that are no
//                  longer stored.
//   reference      each finding's subject is a key (payout payment_id, refund refund_id, adjustment
//                  reference) and depends only on the lines carrying that key in any disbursement — of a
//                  line only its disbursement, line number, references, entry type, currency and amount
//                  (sql/scope/reference_*.sql: reading more fails) — on the payment samples of that key
//                  and on those lines' and samples' disbursement records. Re-checked: the keys of the
//                  lines written since the last check run, the payments sampled since or of a disbursement
//                  written since, and the subjects of the check's open findings (a key a restatement
//                  removed is among them). Every stored line's key is read once a night.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBTypeId, type DuckDBConnection } from '@duckdb/node-api';
import { SQL_DIR } from '../paths.js';
import { CheckFileError } from './errors.js';
import type { Severity } from '../store/read/types.js';
import { fillTemplate } from '../store/sql.js';

export const CHECK_COLUMNS = [
  'disbursement_id', 'recipient_id', 'subject', 'currency', 'expected', 'actual', 'difference', 'detail',
] as const;

export const DEFAULT_CHECKS_DIR = path.join(SQL_DIR, 'checks');

/** Check ids end up as SQL literals and workbook labels: keep them plain. */
const CHECK_ID = /^[a-z][a-z0-9_]*$/;
/** A `requires:` table is named in SQL as it is written: plain words only. */
const TABLE = /^[a-z][a-z0-9_]*$/;

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
  /** From the header: the severities its rows may have, and its words. */
  severities: Severity[];
  title: string;
  meaning: string;
  nextStep: string;
  /** From `-- requires:`: tables the check finds nothing without (the runner skips it when one is empty). */
  requires: string[];
  /** From `-- scope:`: what its findings depend on (the header comment above); `all` when left out. */
  scope: CheckScope;
}

const CHECK_SCOPES = ['all', 'disbursement', 'reference'] as const;
type CheckScope = (typeof CHECK_SCOPES)[number];

/** A check's words, for the Checks sheet and the README. */
export type CheckDescription = Pick<CheckFile, 'id' | 'severities' | 'title' | 'meaning' | 'nextStep'>;

const HEADER_KEYS = ['check', 'severity', 'title', 'meaning', 'next step', 'uses', 'requires', 'scope'] as const;
type HeaderKey = (typeof HEADER_KEYS)[number];

/** The header's fields: `-- key: value`, values continued on `--  ` lines; null when a line breaks the form. */
function parseHeader(text: string): Partial<Record<HeaderKey, string>> {
  const fields: Partial<Record<HeaderKey, string>> = {};
  let last: HeaderKey | null = null;
  for (const line of text.split('\n')) {
    const field = /^-- ([a-z ]+): (.*)$/.exec(line);
    if (field && (HEADER_KEYS as readonly string[]).includes(field[1]!)) {
      last = field[1] as HeaderKey;
      fields[last] = field[2]!.trim();
      continue;
    }
    const more = /^--\s{2,}(\S.*)$/.exec(line);
    if (more && last) {
      fields[last] = `${fields[last]} ${more[1]!.trim()}`;
      continue;
    }
    break;
  }
  return fields;
}

const SEVERITIES: Readonly<Record<string, Severity[]>> = {
  error: ['error'],
  warning: ['warning'],
  'error or warning': ['error', 'warning'],
};
const GENERIC = /^([a-z_]+)\((.*)\)$/;

/** The SELECT of a generic check (sql/checks/generic/<name>.sql) with its arguments: plain words only. */
async function genericSql(dir: string, id: string, file: string, uses: string): Promise<string> {
  const m = GENERIC.exec(uses);
  if (!m) throw new CheckFileError(id, file, `uses: must be name(key = value, …), got '${uses}'`);
  const args: Record<string, string> = {};
  for (const pair of m[2]!.split(',').map((p) => p.trim()).filter(Boolean)) {
    const kv = /^([a-z_]+)\s*=\s*([a-z_]+)$/.exec(pair);
    if (!kv) throw new CheckFileError(id, file, `uses: argument '${pair}' must be key = word`);
    args[kv[1]!] = kv[2]!;
  }
  const template = await readFile(path.join(dir, 'generic', `${m[1]}.sql`), 'utf8').catch(() => null);
  if (template === null)
    throw new CheckFileError(id, file, `uses: no generic check ${m[1]} in ${path.join(dir, 'generic')}`);
  return fillTemplate(template, args, (key) => new CheckFileError(id, file, `uses: ${m[1]} needs ${key} = …`));
}

/** The check of `file` with its header read and its SELECT (its own, or a generic one's). */
async function readCheck(dir: string, id: string, file: string): Promise<CheckFile> {
  const text = await readFile(file, 'utf8');
  const header = parseHeader(text);
  const missing = (['check', 'severity', 'title', 'meaning', 'next step'] as const).filter((k) => !header[k]);
  if (missing.length > 0)
    throw new CheckFileError(
      id,
      file,
      `its header lacks ${missing.map((k) => `-- ${k}:`).join(', ')} (see src/checks/contract.ts)`,
    );
  if (header.check !== id)
    throw new CheckFileError(id, file, `its header says check: ${header.check}, not the file name ${id}`);
  const severities = SEVERITIES[header.severity!];
  if (!severities)
    throw new CheckFileError(
      id,
      file,
      `severity: must be error, warning or "error or warning", got '${header.severity}'`,
    );
  const own = text.trim().replace(/;\s*$/, '');
  const sql = header.uses ? (await genericSql(dir, id, file, header.uses)).trim().replace(/;\s*$/, '') : own;
  if (!/^\s*(WITH|SELECT)\b/im.test(sql.replace(/--[^\n]*/g, '')))
    throw new CheckFileError(id, file, 'the file holds no SELECT');
  const requires = header.requires ? header.requires.split(',').map((t) => t.trim()) : [];
  const notTable = requires.find((t) => !TABLE.test(t));
  if (notTable !== undefined)
    throw new CheckFileError(id, file, `requires: '${notTable}' is not a table name (plain words, comma-separated)`);
  const scope = (header.scope ?? 'all') as CheckScope;
  if (!CHECK_SCOPES.includes(scope)) {
    throw new CheckFileError(id, file, `scope: must be ${CHECK_SCOPES.join(', ')}, got '${header.scope}'`);
  }
  const { title, meaning, 'next step': nextStep } = header;
  return { id, file, sql, severities, title: title!, meaning: meaning!, nextStep: nextStep!, requires, scope };
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
      return readCheck(dir, id, file);
    }),
  );
}

/** Every check's words, from its header (the Checks sheet and the README check table read them here). */
export async function describeChecks(dir: string = DEFAULT_CHECKS_DIR): Promise<CheckDescription[]> {
  return (await loadChecks(dir)).map(({ id, severities, title, meaning, nextStep }) => ({
    id,
    severities,
    title,
    meaning,
    nextStep,
  }));
}

/** The columns a check's SELECT returns: its rows, after a severity when its header lets it choose. */
export function columnsOf(check: Pick<CheckFile, 'severities'>): readonly string[] {
  return check.severities.length > 1 ? ['severity', ...CHECK_COLUMNS] : CHECK_COLUMNS;
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
    const expected = columnsOf(check);
    if (names.join(',') !== expected.join(',')) {
      const chooses = check.severities.length > 1 ? ' (severity first: its header lets it choose per row)' : '';
      throw new CheckFileError(
        check.id,
        check.file,
        `must return exactly the columns ${expected.join(', ')} (in this order${chooses}); it returns ` +
          `${names.join(', ')}`,
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
