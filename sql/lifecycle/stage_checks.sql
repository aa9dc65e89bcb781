-- Checks' rows staged under their file ids: one branch (stage_check_branch.sql) per check file, joined by
-- UNION ALL when a run stages them all in one statement. DuckDB then runs the branches' pipelines side by
-- side on its threads, where a statement per check ran the many small ones (each a scan of the
-- disbursements) one after the other on one thread (#28: 0.96–1.01 s → 0.75–0.81 s for the checks of the
-- 1M-payout bench store, the same rows staged). The runner stages one check per statement to name the
-- file a failing statement came from.
INSERT INTO check_stage
{{branches}}
