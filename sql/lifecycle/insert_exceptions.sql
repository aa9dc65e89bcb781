-- The run's findings as exceptions rows, each with its status as of this run ($1 run id, $2 now):
--   key first seen                                   → new       (state open)
--   state open, not yet shown in a workbook          → new       (the run that found it failed before its workbook)
--   state open                                       → open
--   state acknowledged, expected/actual/difference
--     unchanged since the acknowledgement            → acknowledged
--   state acknowledged, numbers changed              → new       (state open again, ack kept as history)
--   state resolved, produced again                   → new       (first_seen restarts)
-- The stable key: check_id + disbursement_id + subject, hashed (16 hex digits of sha256). A check that
-- produces the same triple twice in one run gets the occurrence number hashed in from the second on,
-- ordered by the row's content, so every row keeps a distinct and (while the data stays) stable key. A row
-- a night carried forward (sql/scope/carry.sql) comes with its finding's key: a scope re-checks or carries
-- every row of one check + disbursement + subject together, so the numbering never mixes the two.
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
FROM (
  SELECT
    s.* EXCLUDE (finding_key),
    CASE WHEN s.finding_key IS NOT NULL THEN s.finding_key
         WHEN s.occurrence = 1 THEN substr(sha256(s.key_text), 1, 16)
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
    FROM check_stage AS st
  ) AS s
) AS k
LEFT JOIN findings AS f ON f.finding_key = k.finding_key
