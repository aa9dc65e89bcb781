-- A run's findings counted by check, severity and lifecycle status, with those the run resolved:
-- the results file's counts per check, the mail's new / still open by severity, the metrics.
SELECT check_id, severity, status, count(*) AS findings
FROM exceptions
WHERE run_id = $1
GROUP BY ALL
UNION ALL
SELECT check_id, severity, 'resolved' AS status, count(*) AS findings
FROM findings
WHERE resolved_run_id = $1
GROUP BY ALL
ORDER BY check_id, severity, status
