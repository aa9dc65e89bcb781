-- Whether a close was recorded since the last complete check run.
SELECT 1 FROM closes WHERE run_id NOT IN (SELECT run_id FROM checked_runs) LIMIT 1
