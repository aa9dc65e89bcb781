// The exception lifecycle, set-based: the run's findings (staged in check_stage) become `exceptions`
// rows with their status, and `findings` (one row per key) moves on. Run inside the runner's
// transaction, after every check has been staged.
//
//   key first seen                                   → new       (state open)
//   state open, not yet shown in a workbook          → new       (the run that found it failed before its workbook)
//   state open                                       → open
//   state acknowledged, expected/actual/difference
//     unchanged since the acknowledgement            → acknowledged
//   state acknowledged, numbers changed              → new       (state open again, ack kept as history)
//   state resolved, produced again                   → new       (first_seen restarts)
//   open/acknowledged, not produced by a check that ran → resolved
import type { DuckDBConnection } from '@duckdb/node-api';

export const STAGE_TABLE = 'check_stage';

export const CREATE_STAGE = `
CREATE OR REPLACE TEMP TABLE ${STAGE_TABLE} (
  file_id VARCHAR NOT NULL,
  check_id VARCHAR, severity VARCHAR, disbursement_id VARCHAR, recipient_id VARCHAR, subject VARCHAR,
  currency VARCHAR, expected BIGINT, actual BIGINT, difference BIGINT, detail VARCHAR
)`;

/** First problem of a staged check's rows, if any: the runner turns it into a CheckFileError. */
export const STAGE_PROBLEM = `
SELECT
  CASE
    WHEN check_id IS DISTINCT FROM file_id THEN 'check_id is ' || COALESCE('''' || check_id || '''', 'NULL')
      || ', not the file name ''' || file_id || ''''
    WHEN severity IS NULL OR severity NOT IN ('error', 'warning') THEN 'severity is '
      || COALESCE('''' || severity || '''', 'NULL') || ', not ''error'' or ''warning'''
    WHEN detail IS NULL OR detail = '' THEN 'detail is empty for subject ' || COALESCE(subject, 'NULL')
  END AS problem
FROM ${STAGE_TABLE}
WHERE file_id = $1
  AND (check_id IS DISTINCT FROM file_id OR severity IS NULL OR severity NOT IN ('error', 'warning')
       OR detail IS NULL OR detail = '')
LIMIT 1`;

/**
 * The stable key: check_id + disbursement_id + subject, hashed (16 hex digits of sha256). A check that
 * produces the same triple twice in one run gets the occurrence number hashed in from the second on,
 * ordered by the row's content, so every row keeps a distinct and (while the data stays) stable key.
 */
const KEYED = `
SELECT
  s.*,
  CASE WHEN s.occurrence = 1 THEN substr(sha256(s.key_text), 1, 16)
       ELSE substr(sha256(s.key_text || chr(31) || CAST(s.occurrence AS VARCHAR)), 1, 16)
  END AS finding_key
FROM (
  SELECT
    st.*,
    st.check_id || chr(31) || COALESCE(st.disbursement_id, '') || chr(31) || COALESCE(st.subject, '') AS key_text,
    ROW_NUMBER() OVER (
      PARTITION BY st.check_id, st.disbursement_id, st.subject
      ORDER BY st.detail, st.expected, st.actual, st.difference, st.currency, st.recipient_id, st.severity
    ) AS occurrence
  FROM ${STAGE_TABLE} AS st
) AS s`;

/** $1 run_id, $2 now (ISO text). */
const INSERT_EXCEPTIONS = `
INSERT INTO exceptions (run_id, finding_key, check_id, severity, disbursement_id, recipient_id, subject,
  currency, expected, actual, difference, detail, status, created_at)
SELECT
  $1, k.finding_key, k.check_id, k.severity, k.disbursement_id, k.recipient_id, k.subject,
  k.currency, k.expected, k.actual, k.difference, k.detail,
  CASE
    WHEN f.finding_key IS NULL THEN 'new'
    WHEN f.state = 'open' AND f.shown_run_id IS NULL THEN 'new'
    WHEN f.state = 'open' THEN 'open'
    WHEN f.state = 'acknowledged'
     AND k.expected IS NOT DISTINCT FROM f.ack_expected
     AND k.actual IS NOT DISTINCT FROM f.ack_actual
     AND k.difference IS NOT DISTINCT FROM f.ack_difference THEN 'acknowledged'
    ELSE 'new'
  END,
  CAST($2 AS TIMESTAMPTZ)
FROM (${KEYED}) AS k
LEFT JOIN findings AS f ON f.finding_key = k.finding_key`;

const UPDATE_SEEN = `
UPDATE findings AS f SET
  check_id = e.check_id,
  severity = e.severity,
  disbursement_id = e.disbursement_id,
  recipient_id = e.recipient_id,
  subject = e.subject,
  currency = e.currency,
  expected = e.expected,
  actual = e.actual,
  difference = e.difference,
  detail = e.detail,
  state = CASE WHEN e.status = 'acknowledged' THEN 'acknowledged' ELSE 'open' END,
  first_seen = CASE WHEN f.state = 'resolved' THEN CAST($2 AS TIMESTAMPTZ) ELSE f.first_seen END,
  first_run_id = CASE WHEN f.state = 'resolved' THEN $1 ELSE f.first_run_id END,
  last_seen = CAST($2 AS TIMESTAMPTZ),
  last_run_id = $1,
  resolved_at = NULL,
  resolved_run_id = NULL,
  -- new again (re-opened, or never shown): no workbook has shown it in this form yet
  shown_run_id = CASE WHEN e.status = 'new' THEN NULL ELSE f.shown_run_id END
FROM exceptions AS e
WHERE e.run_id = $1 AND e.finding_key = f.finding_key`;

const INSERT_NEW = `
INSERT INTO findings (finding_key, check_id, severity, disbursement_id, recipient_id, subject, currency,
  expected, actual, difference, detail, state, first_seen, last_seen, first_run_id, last_run_id)
SELECT
  e.finding_key, e.check_id, e.severity, e.disbursement_id, e.recipient_id, e.subject, e.currency,
  e.expected, e.actual, e.difference, e.detail, 'open', CAST($2 AS TIMESTAMPTZ), CAST($2 AS TIMESTAMPTZ), $1, $1
FROM exceptions AS e
WHERE e.run_id = $1
  AND NOT EXISTS (SELECT 1 FROM findings AS f WHERE f.finding_key = e.finding_key)`;

/** Only findings of checks that ran can be resolved: `only: ['total_identity']` leaves the rest alone. */
function resolveStatement(checkIds: readonly string[] | null): string {
  const scope = checkIds === null ? '' : `AND check_id IN (${checkIds.map((id) => `'${id}'`).join(', ')})`;
  return `
UPDATE findings SET state = 'resolved', resolved_at = CAST($2 AS TIMESTAMPTZ), resolved_run_id = $1
WHERE state IN ('open', 'acknowledged') AND last_run_id <> $1 ${scope}`;
}

/**
 * Write the staged findings of run `runId` and advance the lifecycle. checkIds: the checks that ran
 * (ids already validated as plain identifiers), or null when every check ran, in which case findings
 * of checks that no longer exist are resolved too.
 */
export async function applyLifecycle(
  connection: DuckDBConnection,
  runId: string,
  now: Date,
  checkIds: readonly string[] | null,
): Promise<void> {
  const params = [runId, now.toISOString()];
  await connection.run(INSERT_EXCEPTIONS, params);
  // Existing keys are updated before new ones are inserted, so UPDATE_SEEN only touches old rows.
  await connection.run(UPDATE_SEEN, params);
  await connection.run(INSERT_NEW, params);
  await connection.run(resolveStatement(checkIds), params);
}

/**
 * The findings of check run `runId` have been shown in a workbook that was written whole: from now on they
 * are "open", no longer "new". Called only after the workbook is in place, so a run that failed before
 * (or while) writing it leaves its findings new for the next workbook.
 */
export async function markShown(connection: DuckDBConnection, runId: string): Promise<void> {
  await connection.run(
    `UPDATE findings SET shown_run_id = $1
     WHERE shown_run_id IS NULL AND finding_key IN (SELECT finding_key FROM exceptions WHERE run_id = $1)`,
    [runId],
  );
}
