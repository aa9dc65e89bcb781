-- The finding a person acknowledges ($1 its key), with the numbers the acknowledgement will cover.
SELECT check_id, disbursement_id, subject, state, resolved_run_id, expected, actual, difference
FROM findings
WHERE finding_key = $1
