-- The quarantine rows of the disbursements in scope, and every row of no stored disbursement (a page, a
-- record that was never stored: current_quarantine counts the latest sync's, which changes every night).
CREATE OR REPLACE TEMP TABLE quarantine AS
SELECT * FROM {{db}}.main.quarantine AS q
WHERE q.disbursement_id IN (SELECT disbursement_id FROM scope_d)
   OR q.disbursement_id IS NULL
   OR NOT EXISTS (SELECT 1 FROM {{db}}.main.disbursements AS d WHERE d.disbursement_id = q.disbursement_id)
