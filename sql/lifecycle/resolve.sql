-- Findings open or acknowledged that run $1 (at $2) did not produce are resolved. Only findings of checks
-- that ran: $3 the ids of the checks that ran, or NULL when every check ran (then findings of checks that no
-- longer exist are resolved too). A finding about a disbursement whose lines are archived is kept as it was:
-- the checks no longer see its lines, which is no evidence that the problem went away.
UPDATE findings SET state = 'resolved', resolved_at = CAST($2 AS TIMESTAMPTZ), resolved_run_id = $1
WHERE state IN ('open', 'acknowledged') AND last_run_id <> $1
  AND ($3::VARCHAR[] IS NULL OR list_contains($3::VARCHAR[], check_id))
  AND (disbursement_id IS NULL OR disbursement_id NOT IN (SELECT disbursement_id FROM archived_disbursements))
