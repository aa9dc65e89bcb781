-- Stored disbursements a payment of which a run sampled since the last complete check run.
INSERT INTO scope_seed
SELECT DISTINCT 'payment_samples', s.disbursement_id, CAST(NULL AS VARCHAR)
FROM payment_samples AS s
JOIN disbursements AS d ON d.disbursement_id = s.disbursement_id
WHERE s.sampled_run_id NOT IN (SELECT run_id FROM checked_runs)
