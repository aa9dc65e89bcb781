-- The basis of the latest complete check run (full or incremental; a run of --only checks leaves it).
SELECT basis FROM check_runs
WHERE mode IN ('full', 'incremental')
ORDER BY checked_at DESC, run_id DESC
LIMIT 1
