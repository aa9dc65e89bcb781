-- The same table's rows of the unchanged disbursements in scope (a sample, a quarantine row or a close
-- beside them): read by disbursement.
INSERT INTO {{table}}
SELECT * FROM {{source}}
WHERE disbursement_id IN (SELECT disbursement_id FROM scope_d WHERE stale)
