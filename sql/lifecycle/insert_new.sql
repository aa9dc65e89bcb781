-- Findings run $1 saw first, at $2.
INSERT INTO findings (finding_key, check_id, severity, disbursement_id, recipient_id, subject, currency,
  expected, actual, difference, detail, state, first_seen, last_seen, first_run_id, last_run_id)
SELECT
  e.finding_key, e.check_id, e.severity, e.disbursement_id, e.recipient_id, e.subject, e.currency,
  e.expected, e.actual, e.difference, e.detail, 'open', CAST($2 AS TIMESTAMPTZ), CAST($2 AS TIMESTAMPTZ), $1, $1
FROM exceptions AS e
WHERE e.run_id = $1
  AND NOT EXISTS (SELECT 1 FROM findings AS f WHERE f.finding_key = e.finding_key)
