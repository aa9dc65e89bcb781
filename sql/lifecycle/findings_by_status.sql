-- A check run's findings per status, and the findings it resolved ($1 run id).
SELECT status, COUNT(*) FROM exceptions WHERE run_id = $1 GROUP BY status
UNION ALL
SELECT 'resolved', COUNT(*) FROM findings WHERE resolved_run_id = $1
