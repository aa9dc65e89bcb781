-- A check run's findings per check and severity ($1 run id).
SELECT check_id, severity, COUNT(*) FROM exceptions WHERE run_id = $1
GROUP BY check_id, severity ORDER BY check_id, severity
