-- Whether the scope holds a disbursement whose lines must be read by disbursement (create_scope_d.sql).
SELECT 1 FROM scope_d WHERE stale LIMIT 1
