-- The finding a person acknowledges ($1 its key), with the numbers the acknowledgement will cover and the
-- money it puts at stake (what four eyes compares with the currency's threshold).
SELECT check_id, disbursement_id, subject, state, resolved_run_id, expected, actual, difference, currency,
  finding_stake(check_id, currency, expected, actual, difference) AS stake
FROM findings
WHERE finding_key = $1
