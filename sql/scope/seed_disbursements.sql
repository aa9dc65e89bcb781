-- Disbursements written since the last complete check run: a run id not taken in by one (checked_runs),
-- whatever wrote it. The writer replaces a disbursement whole, so its lines, files, file lines and history
-- rows were written with it, under the same run id.
INSERT INTO scope_seed
SELECT 'disbursements', disbursement_id, run_id
FROM disbursements
WHERE run_id NOT IN (SELECT run_id FROM checked_runs)
