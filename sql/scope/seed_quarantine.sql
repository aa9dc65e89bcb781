-- Stored disbursements a run quarantined a record of since the last complete check run, without rewriting
-- them (a list record that failed validation): current_quarantine reads the latest run's rows. Rows of no
-- stored disbursement are in every night's world (world_quarantine.sql).
INSERT INTO scope_seed
SELECT DISTINCT 'quarantine', q.disbursement_id, CAST(NULL AS VARCHAR)
FROM quarantine AS q
JOIN disbursements AS d ON d.disbursement_id = q.disbursement_id
WHERE q.run_id NOT IN (SELECT run_id FROM checked_runs)
