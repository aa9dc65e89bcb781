-- The runs that wrote the disbursements written since the last complete check run: their lines carry them.
SELECT DISTINCT run_id FROM scope_seed WHERE source = 'disbursements' ORDER BY run_id
