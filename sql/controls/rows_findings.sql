-- A page of findings after key $1 ($2 rows), in key order, with the time of their current state.
SELECT finding_key, state, check_id, disbursement_id, subject, currency, expected, actual, difference,
  COALESCE(resolved_at, last_seen) AS state_at
FROM findings
WHERE finding_key > $1
ORDER BY finding_key
LIMIT $2
