-- Every run as the trail records it, oldest first.
SELECT run_id, command, started_at FROM runs ORDER BY started_at, run_id
