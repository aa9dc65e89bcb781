-- The check run itself: $1 run id, $2 the lifecycle's clock, $3 the check ids that ran, $4 how (full,
-- incremental or only), $5 the basis its findings were computed on (sql/schema/085); its finding count
-- from the stage.
INSERT INTO check_runs (run_id, checked_at, checks, findings, mode, basis)
SELECT $1, CAST($2 AS TIMESTAMPTZ), $3, COUNT(*), $4, $5 FROM check_stage
