// Reading findings for the workbooks: a check run's exceptions joined to their lifecycle, page by page so
// that 100k findings never sit in memory at once, and the findings open at a month's close.
// Pages are separate keyset queries rather than one streaming result: the caller may query the same
// connection between pages (a streaming result would be invalidated by that), and each page costs one
// scan of the run's rows.
import type { DuckDBConnection } from '@duckdb/node-api';
import { TerminalError } from '../../errors.js';
import type { FindingStatus, LatestFinding, Severity } from './types.js';

export type { LatestFinding };

/** A check run the store has no record of. */
export class NoCheckRunError extends TerminalError {
  override readonly name = 'NoCheckRunError';
}


export interface LatestFindingsOptions {
  /** Age is counted to this instant; the run's own check time by default (reproducible workbooks). */
  now?: Date;
  pageSize?: number;
  /** Also yield, after the run's findings, the findings this run resolved (status 'resolved'). */
  includeResolved?: boolean;
}

const DAY_MS = 86_400_000;

/** Whole days from firstSeen to now, never negative. */
export function ageInDays(firstSeen: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - firstSeen.getTime()) / DAY_MS));
}

// Order, as an accountant works through them: new, then still open, then acknowledged (then resolved);
// errors before warnings; the most money at stake first; then by check, disbursement and subject. The
// key makes it total. The rank and the stake lead the keyset (see pages()).
const TAIL = `f.severity, -abs(COALESCE(CAST(f.difference AS HUGEINT), 0)), f.check_id, COALESCE(f.disbursement_id, ''), COALESCE(f.subject, ''), f.finding_key`;
const RUN_SORT = `CASE f.status WHEN 'new' THEN 0 WHEN 'open' THEN 1 ELSE 2 END, ${TAIL}`;
const RESOLVED_SORT = `3, ${TAIL}`;
const CURSOR = '($2::INTEGER, $3, $4::HUGEINT, $5, $6, $7, $8)';
const RANK: Record<string, number> = { new: 0, open: 1, acknowledged: 2, resolved: 3 };

/** How many acknowledgements and withdrawals the finding's history holds (#27, finding_acks). */
const ACK_ENTRIES = '(SELECT count(*) FROM finding_acks AS a WHERE a.finding_key = f.finding_key) AS ack_entries';

const RUN_PAGE = `
SELECT f.finding_key, f.status, f.check_id, f.severity, f.recipient_id, f.disbursement_id, f.subject,
  f.currency, f.expected, f.actual, f.difference, f.detail,
  COALESCE(l.first_seen, f.created_at) AS first_seen, COALESCE(l.last_seen, f.created_at) AS last_seen,
  l.ack_note, l.ack_by, l.ack_at, ${ACK_ENTRIES}
FROM exceptions AS f
LEFT JOIN findings AS l ON l.finding_key = f.finding_key
WHERE f.run_id = $1 AND (${RUN_SORT}) > ${CURSOR}
ORDER BY ${RUN_SORT}
LIMIT $9`;

const RESOLVED_PAGE = `
SELECT f.finding_key, 'resolved' AS status, f.check_id, f.severity, f.recipient_id, f.disbursement_id,
  f.subject, f.currency, f.expected, f.actual, f.difference, f.detail, f.first_seen, f.last_seen,
  f.ack_note, f.ack_by, f.ack_at, ${ACK_ENTRIES}
FROM findings AS f
WHERE f.resolved_run_id = $1 AND (${RESOLVED_SORT}) > ${CURSOR}
ORDER BY ${RESOLVED_SORT}
LIMIT $9`;

/** The findings of run `runId`, in pages (arrays) of rows, errors first. */
export async function* latestFindings(
  connection: DuckDBConnection,
  runId: string,
  opts: LatestFindingsOptions = {},
): AsyncGenerator<LatestFinding[]> {
  const pageSize = opts.pageSize ?? 5000;
  const now = opts.now ?? (await runClock(connection, runId));
  yield* pages(connection, RUN_PAGE, runId, pageSize, now);
  if (opts.includeResolved) yield* pages(connection, RESOLVED_PAGE, runId, pageSize, now);
}

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
  runId: string,
  pageSize: number,
  now: Date,
): AsyncGenerator<LatestFinding[]> {
  // The keyset starts below every real sort key (rank −1; '' sorts first; severity is never empty).
  let after: [number, string, string, string, string, string, string] = [-1, '', '0', '', '', '', ''];
  for (;;) {
    const reader = await connection.runAndReadAll(sql, [runId, ...after, pageSize]);
    const rows = reader.getRowObjectsJS().map((r) => toFinding(r, now));
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1]!;
    const stake = last.difference === null ? 0n : last.difference < 0n ? last.difference : -last.difference;
    after = [RANK[last.status] ?? 3, last.severity, String(stake), last.checkId, last.disbursementId ?? '', last.subject ?? '', last.key];
  }
}

function toFinding(r: Record<string, unknown>, now: Date): LatestFinding {
  const firstSeen = r.first_seen as Date;
  return {
    key: r.finding_key as string,
    status: r.status as FindingStatus,
    ageDays: ageInDays(firstSeen, now),
    checkId: r.check_id as string,
    severity: r.severity as Severity,
    recipientId: (r.recipient_id as string | null) ?? null,
    disbursementId: (r.disbursement_id as string | null) ?? null,
    subject: (r.subject as string | null) ?? null,
    currency: (r.currency as string | null) ?? null,
    expected: (r.expected as bigint | null) ?? null,
    actual: (r.actual as bigint | null) ?? null,
    difference: (r.difference as bigint | null) ?? null,
    detail: r.detail as string,
    firstSeen,
    lastSeen: r.last_seen as Date,
    ackNote: (r.ack_note as string | null) ?? null,
    ackBy: (r.ack_by as string | null) ?? null,
    ackAt: (r.ack_at as Date | null) ?? null,
    ackEntries: Number(r.ack_entries ?? 0),
  };
}
