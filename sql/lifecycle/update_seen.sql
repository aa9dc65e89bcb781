-- Findings seen again by run $1 at $2 take its numbers and state (before insert_new.sql, so only old rows).
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
WHERE e.run_id = $1 AND e.finding_key = f.finding_key
