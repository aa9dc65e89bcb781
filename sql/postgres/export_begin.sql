INSERT INTO exports (run_id, snapshot_run_id, started_at, status) VALUES ($1, $2, now(), 'running')
ON CONFLICT (run_id) DO UPDATE SET started_at = now(), status = 'running', finished_at = NULL, error = NULL
