-- The check run itself: $1 run id, $2 the lifecycle's clock, $3 the check ids that ran; its finding count
-- from the stage.
INSERT INTO check_runs (run_id, checked_at, checks, findings)
SELECT $1, CAST($2 AS TIMESTAMPTZ), $3, COUNT(*) FROM check_stage
