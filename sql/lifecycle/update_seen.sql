-- Findings seen again by run $1 at $2 whose numbers, words or state move take them (before insert_new.sql,
-- so only old rows). Only those: DuckDB keeps every updated value of a transaction in memory it cannot
-- spill, so seeing 720 000 findings again by this statement alone took --memory-mb 192 (docs/performance.md);
-- the others are only marked seen (seen_again.sql).
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
  AND (f.state IS DISTINCT FROM CASE WHEN e.status = 'acknowledged' THEN 'acknowledged' ELSE 'open' END
    OR (e.status = 'new' AND f.shown_run_id IS NOT NULL)
    OR f.check_id IS DISTINCT FROM e.check_id OR f.severity IS DISTINCT FROM e.severity
    OR f.disbursement_id IS DISTINCT FROM e.disbursement_id OR f.recipient_id IS DISTINCT FROM e.recipient_id
    OR f.subject IS DISTINCT FROM e.subject OR f.currency IS DISTINCT FROM e.currency
    OR f.expected IS DISTINCT FROM e.expected OR f.actual IS DISTINCT FROM e.actual
    OR f.difference IS DISTINCT FROM e.difference OR f.detail IS DISTINCT FROM e.detail)
