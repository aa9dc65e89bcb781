-- The current list of exceptions: findings still open or acknowledged, with the status of their last
-- run (new | open | acknowledged) and their age in whole days as of now (latestFindings in
-- src/checks/findings.ts computes the same age for a given run's clock). `stake` is each finding's own money
-- at stake; `cause` and `cause_stake` (on the cause's root only) are finding_groups': the money at stake per
-- currency, as the workbook and every outlet give it, is
--   SELECT currency, sum(cause_stake) FROM open_exceptions WHERE needs_person GROUP BY currency
-- (adding `stake` counts a cause's money once per finding that reports it). Each finding's owner, due date,
-- whether it is overdue and whether its acknowledgement waits for a second person are finding_controls'.
CREATE OR REPLACE VIEW open_exceptions AS
SELECT
  f.finding_key,
  CASE
    WHEN f.state = 'acknowledged' THEN 'acknowledged'
    WHEN e.status = 'new' THEN 'new'
    ELSE 'open'
  END AS status,
  CAST(FLOOR(date_diff('second', f.first_seen, CURRENT_TIMESTAMP) / 86400) AS INTEGER) AS age_days,
  f.check_id,
  f.severity,
  f.disbursement_id,
  f.recipient_id,
  f.subject,
  f.currency,
  f.expected,
  f.actual,
  f.difference,
  f.detail,
  f.state,
  f.first_seen,
  f.last_seen,
  f.first_run_id,
  f.last_run_id,
  f.ack_by,
  f.ack_at,
  f.ack_note,
  f.ack_expected,
  f.ack_actual,
  f.ack_difference,
  to_major(f.expected, f.currency) AS expected_major,
  to_major(f.actual, f.currency) AS actual_major,
  to_major(f.difference, f.currency) AS difference_major,
  to_major(f.ack_expected, f.currency) AS ack_expected_major,
  to_major(f.ack_actual, f.currency) AS ack_actual_major,
  to_major(f.ack_difference, f.currency) AS ack_difference_major,
  finding_stake(f.check_id, f.currency, f.expected, f.actual, f.difference) AS stake,
  to_major(finding_stake(f.check_id, f.currency, f.expected, f.actual, f.difference), f.currency) AS stake_major,
  g.cause,
  g.is_root,
  COALESCE(g.needs_person, false) AS needs_person,
  g.cause_stake,
  g.cause_stake_major,
  -- controls (finding_controls): who owns it and by when, whether that day is past (UTC), and four eyes
  c.owner,
  c.owner_source,
  c.due_date,
  COALESCE(c.due_date < CAST(now() AT TIME ZONE 'UTC' AS DATE), false) AS overdue,
  c.awaiting_approval_of,
  c.ack_os_user,
  c.ack_host,
  c.ack_approved_by,
  c.ack_approved_at
FROM findings AS f
LEFT JOIN exceptions AS e ON e.run_id = f.last_run_id AND e.finding_key = f.finding_key
LEFT JOIN finding_groups AS g ON g.run_id = f.last_run_id AND g.finding_key = f.finding_key
LEFT JOIN finding_controls AS c ON c.finding_key = f.finding_key
WHERE f.state IN ('open', 'acknowledged');
