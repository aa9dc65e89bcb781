// Reading findings for the workbooks: a check run's exceptions joined to their lifecycle, page by page so
// that 100k findings never sit in memory at once, and the findings open at a month's close.
// Pages are separate keyset queries rather than one streaming result: the caller may query the same
// connection between pages (a streaming result would be invalidated by that). The run's rows are ranked
// once into a TEMP table and each page is a scan of it: ranked page by page, 720 000 findings were 145
// rankings of the whole run (its causes' window functions included).
import type { DuckDBConnection } from '@duckdb/node-api';
import { TerminalError } from '../../errors.js';
import type { FindingStatus, LatestFinding, Severity } from './types.js';
import { convert, RATE_SCALE_DIGITS, ratesValues, type Rates } from '../../rates.js';
import { sqlIdent } from '../sql-text.js';

export type { LatestFinding };

/** A check run the store has no record of. */
class NoCheckRunError extends TerminalError {
  override readonly name = 'NoCheckRunError';
}


export interface LatestFindingsOptions {
  /** Age is counted to this instant; the run's own check time by default (reproducible workbooks). */
  now?: Date;
  pageSize?: number;
  /** Also yield, after the run's findings, the findings this run resolved (status 'resolved'). */
  includeResolved?: boolean;
  /**
   * The user's rates (--rates): money at stake ordered in the reporting currency; without them, within each currency.
   */
  rates?: Rates | null;
}

const DAY_MS = 86_400_000;

/** Whole days from firstSeen to now, never negative. */
export function ageInDays(firstSeen: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - firstSeen.getTime()) / DAY_MS));
}

// Order, as an accountant works through them: new, then still open, then acknowledged (then
// resolved); errors before warnings; the most money at stake first — converted to the reporting currency
// when rates are given, else within each currency, the currencies one after another (never ranked across
// currencies by raw subunits) and findings without money last —; then by check, disbursement and subject.
// A cause's repeats (finding_groups) follow its root finding, ordered by the root's place. The key makes
// it total; every sort column is selected (k1…k10) and the last row's are the next page's cursor.
const SORT = 'k1, k2, k3, k4, k5, k6, k7, k8, k9, k10';
const CURSOR = '($1::INTEGER, $2, $3, $4::HUGEINT, $5, $6, $7, $8, $9::INTEGER, $10)';
const RATE_STEP = 10n ** BigInt(RATE_SCALE_DIGITS / 2);

/** How many acknowledgements and withdrawals the finding's history holds (finding_acks). */
const ACK_ENTRIES = '(SELECT count(*) FROM finding_acks AS a WHERE a.finding_key = f.finding_key) AS ack_entries';

/** Who owns a finding, by when, and four eyes (finding_controls.sql). */
const CONTROLS = 'fc.owner, fc.owner_source, fc.due_date, fc.ack_os_user, fc.ack_host, fc.ack_approved_by, '
  + 'fc.awaiting_approval_of';

/** The user's rates as a CTE (codes are three capitals and rates integers: checked by parseRates). */
function ratesCte(rates: Rates | null | undefined): string {
  const rows = ratesValues(rates ?? null).filter((r) => /^[A-Z]{3}$/.test(r.currency));
  if (rows.length === 0)
    return 'rates AS (SELECT CAST(NULL AS VARCHAR) AS currency, CAST(NULL AS HUGEINT) AS scaled WHERE false)';
  return `rates AS (SELECT * FROM (VALUES ${rows.map((r) => `('${r.currency}', CAST(${r.scaled.toString()} AS HUGEINT))`).join(', ')}) AS t(currency, scaled))`;
}

/**
 * The sort columns of a finding `x` (its root's, for a repeat) over a relation with currency and stake:
 * the group (''= converted; else the currency; '~' = no currency) and minus the stake (converted when a
 * rate is known). The conversion divides in two steps so that it stays within HUGEINT; it only orders.
 */
function sortColumns(x: string, rates: Rates | null | undefined): { group: string; stake: string } {
  const reporting = rates ? `currency_factor('${/^[A-Z]{3}$/.test(rates.reporting) ? rates.reporting : 'XXX'}')` : '1';
  const converted = `(${x}.stake * ${x}_rate.scaled // (currency_factor(${x}.currency) * ${RATE_STEP.toString()})) * ${reporting} // ${RATE_STEP.toString()}`;
  return {
    group: `CASE WHEN ${x}.stake IS NOT NULL AND ${x}_rate.scaled IS NOT NULL THEN '' ELSE COALESCE(${x}.currency, '~') END`,
    stake: `-COALESCE(CASE WHEN ${x}_rate.scaled IS NOT NULL THEN ${converted} END, ${x}.stake, 0)`,
  };
}

/** The run's findings ($1) with their sort columns. */
function runRows(rates: Rates | null | undefined): string {
  const root = sortColumns('r', rates);
  return `
WITH ${ratesCte(rates)},
base AS (
  SELECT f.finding_key, f.status, f.check_id, f.severity, f.recipient_id, f.disbursement_id, f.subject,
    f.currency, f.expected, f.actual, f.difference, f.detail,
    COALESCE(l.first_seen, f.created_at) AS first_seen, COALESCE(l.last_seen, f.created_at) AS last_seen,
    l.ack_note, l.ack_by, l.ack_at, ${ACK_ENTRIES}, g.cause_stake AS stake, g.root_key, g.is_root, g.group_size, ${CONTROLS}
  FROM exceptions AS f
  JOIN finding_groups AS g ON g.run_id = f.run_id AND g.finding_key = f.finding_key
  LEFT JOIN findings AS l ON l.finding_key = f.finding_key
  LEFT JOIN finding_controls AS fc ON fc.finding_key = f.finding_key
  WHERE f.run_id = $1
),
keyed AS (
  SELECT b.*,
    CASE r.status WHEN 'new' THEN 0 WHEN 'open' THEN 1 ELSE 2 END AS k1, r.severity AS k2,
    ${root.group} AS k3, ${root.stake} AS k4,
    r.check_id AS k5, COALESCE(r.disbursement_id, '') AS k6, COALESCE(r.subject, '') AS k7, r.finding_key AS k8,
    CASE WHEN b.is_root THEN 0 ELSE 1 END AS k9, b.finding_key AS k10
  FROM base AS b
  JOIN base AS r ON r.finding_key = b.root_key
  LEFT JOIN rates AS r_rate ON r_rate.currency = r.currency
)
SELECT * FROM keyed`;
}

/** The findings run $1 resolved, with their sort columns (after the run's own: k1 = 3). */
function resolvedRows(rates: Rates | null | undefined): string {
  const own = sortColumns('r', rates);
  return `
WITH ${ratesCte(rates)},
base AS (
  SELECT f.finding_key, 'resolved' AS status, f.check_id, f.severity, f.recipient_id, f.disbursement_id,
    f.subject, f.currency, f.expected, f.actual, f.difference, f.detail, f.first_seen, f.last_seen,
    f.ack_note, f.ack_by, f.ack_at, ${ACK_ENTRIES}, finding_stake(f.check_id, f.currency, f.expected, f.actual, f.difference) AS stake,
    f.finding_key AS root_key, true AS is_root, 1 AS group_size, ${CONTROLS}
  FROM findings AS f
  LEFT JOIN finding_controls AS fc ON fc.finding_key = f.finding_key
  WHERE f.resolved_run_id = $1
),
keyed AS (
  SELECT r.*, 3 AS k1, r.severity AS k2, ${own.group} AS k3, ${own.stake} AS k4,
    r.check_id AS k5, COALESCE(r.disbursement_id, '') AS k6, COALESCE(r.subject, '') AS k7, r.finding_key AS k8, 0 AS k9, r.finding_key AS k10
  FROM base AS r
  LEFT JOIN rates AS r_rate ON r_rate.currency = r.currency
)
SELECT * FROM keyed`;
}

/** The findings of run `runId`, in pages (arrays) of rows, errors first. */
export async function* latestFindings(
  connection: DuckDBConnection,
  runId: string,
  opts: LatestFindingsOptions = {},
): AsyncGenerator<LatestFinding[]> {
  const pageSize = opts.pageSize ?? 5000;
  const now = opts.now ?? (await runClock(connection, runId));
  const table = sqlIdent(`ranked_findings_${++ranked}`);
  await connection.run(`CREATE OR REPLACE TEMP TABLE ${table} AS ${runRows(opts.rates)}`, [runId]);
  try {
    if (opts.includeResolved) await connection.run(`INSERT INTO ${table} BY NAME ${resolvedRows(opts.rates)}`, [runId]);
    yield *
      pages(
        connection,
        `SELECT * FROM ${table} WHERE (${SORT}) > ${CURSOR} ORDER BY ${SORT} LIMIT $11`,
        pageSize,
        now,
        opts.rates ?? null,
      );
  } finally {
    await connection.run(`DROP TABLE IF EXISTS temp.main.${table}`);
  }
}

/**
 * How many rows latestFindings yields for run `runId`, by the same joins: a sheet counts its rows before it
 * writes the first (list-sheet.ts), and a count short of the rows would pass the sheet.
 */
export async function countLatestFindings(
  connection: DuckDBConnection,
  runId: string,
  opts: { includeResolved?: boolean } = {},
): Promise<number> {
  const reader = await connection.runAndReadAll(
    `SELECT
    (SELECT count(*) FROM exceptions AS f JOIN finding_groups AS g ON g.run_id = f.run_id AND g.finding_key = f.finding_key WHERE f.run_id = $1)
    + CASE WHEN $2 THEN (SELECT count(*) FROM findings WHERE resolved_run_id = $1) ELSE 0 END`,
    [runId, opts.includeResolved === true],
  );
  return Number(reader.getRows()[0]![0]);
}

/** Names the TEMP table of each ranking apart (a caller may hold two at once). */
let ranked = 0;

async function runClock(connection: DuckDBConnection, runId: string): Promise<Date> {
  const reader = await connection.runAndReadAll('SELECT checked_at FROM check_runs WHERE run_id = $1', [runId]);
  const at = reader.getRowsJS()[0]?.[0];
  if (!(at instanceof Date)) {
    throw new NoCheckRunError(`no check run ${runId}; run the checks first (SELECT run_id FROM check_runs)`);
  }
  return at;
}

async function* pages(
  connection: DuckDBConnection,
  sql: string,
  pageSize: number,
  now: Date,
  rates: Rates | null,
): AsyncGenerator<LatestFinding[]> {
  // The keyset starts below every real sort key (rank −1; '' sorts first).
  let after: unknown[] = [-1, '', '', '0', '', '', '', '', 0, ''];
  for (;;) {
    const reader = await connection.runAndReadAll(sql, [...after, pageSize] as never);
    const raw = reader.getRowObjectsJS();
    const rows = raw.map((r) => toFinding(r, now, rates));
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    const last = raw[raw.length - 1]!;
    after = [
      Number(last.k1),
      String(last.k2),
      String(last.k3),
      String(last.k4),
      String(last.k5),
      String(last.k6),
      String(last.k7),
      String(last.k8),
      Number(last.k9),
      String(last.k10),
    ];
  }
}

/** What a finding row carries of its check's own columns (exceptions), read the same wherever it is read. */
export type CheckColumns = Pick<
  LatestFinding,
  | 'checkId' | 'key' | 'severity' | 'disbursementId' | 'recipientId' | 'subject' | 'currency'
  | 'expected' | 'actual' | 'difference' | 'detail' | 'firstSeen'
>;

/** A row's check columns, from their SQL names (exceptions joined to findings). */
export function checkColumns(r: Record<string, unknown>): CheckColumns {
  return {
    checkId: String(r.check_id),
    key: String(r.finding_key),
    severity: r.severity as Severity,
    disbursementId: (r.disbursement_id as string | null) ?? null,
    recipientId: (r.recipient_id as string | null) ?? null,
    subject: (r.subject as string | null) ?? null,
    currency: (r.currency as string | null) ?? null,
    expected: (r.expected as bigint | null) ?? null,
    actual: (r.actual as bigint | null) ?? null,
    difference: (r.difference as bigint | null) ?? null,
    detail: String(r.detail),
    firstSeen: r.first_seen as Date,
  };
}

function toFinding(r: Record<string, unknown>, now: Date, rates: Rates | null): LatestFinding {
  const columns = checkColumns(r);
  const { currency, firstSeen } = columns;
  const stake = r.stake === null || r.stake === undefined ? null : BigInt(r.stake as bigint);
  return {
    ...columns,
    stake,
    stakeConverted: rates && stake !== null && currency !== null ? convert(rates, stake, currency) : null,
    rootKey: String(r.root_key ?? r.finding_key),
    isRoot: r.is_root !== false,
    groupSize: Number(r.group_size ?? 1),
    status: r.status as FindingStatus,
    ageDays: ageInDays(firstSeen, now),
    lastSeen: r.last_seen as Date,
    ackNote: (r.ack_note as string | null) ?? null,
    ackBy: (r.ack_by as string | null) ?? null,
    ackAt: (r.ack_at as Date | null) ?? null,
    ackEntries: Number(r.ack_entries ?? 0),
    owner: (r.owner as string | null) ?? null,
    ownerSource: (r.owner_source as string | null) ?? null,
    dueDate: r.due_date instanceof Date ? r.due_date.toISOString().slice(0, 10) : null,
    overdue: isOverdue(r.due_date, now),
    ackOsUser: (r.ack_os_user as string | null) ?? null,
    ackHost: (r.ack_host as string | null) ?? null,
    ackApprovedBy: (r.ack_approved_by as string | null) ?? null,
    awaitingApprovalOf: (r.awaiting_approval_of as string | null) ?? null,
  };
}

/** A due date (a day) is overdue from the day after it, counted in UTC on the clock the workbook reads with. */
export function isOverdue(due: unknown, now: Date): boolean {
  return due instanceof Date && due.toISOString().slice(0, 10) < now.toISOString().slice(0, 10);
}
