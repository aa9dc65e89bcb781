-- Every run whose rows the complete check run $1 took in: the runs recorded, and any run id the rows a night
-- seeds from carry (a row written under no recorded run counts once, then is taken in).
INSERT INTO checked_runs
SELECT run_id, $1
FROM (
  SELECT run_id FROM runs
  UNION SELECT run_id FROM disbursements
  UNION SELECT run_id FROM quarantine
  UNION SELECT sampled_run_id FROM payment_samples
  UNION SELECT run_id FROM closes
) AS taken
WHERE run_id NOT IN (SELECT run_id FROM checked_runs)
