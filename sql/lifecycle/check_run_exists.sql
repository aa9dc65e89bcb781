-- Whether checks already ran under run id $1 (every check run needs its own).
SELECT 1 FROM check_runs WHERE run_id = $1
