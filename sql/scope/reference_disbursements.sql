-- The disbursements of the lines and samples of a reference world (the TEMP tables before it), as a TEMP table.
CREATE OR REPLACE TEMP TABLE disbursements AS
SELECT * FROM {{db}}.main.disbursements
WHERE disbursement_id IN (
  SELECT disbursement_id FROM payouts UNION SELECT disbursement_id FROM refunds UNION SELECT disbursement_id FROM adjustments
  UNION SELECT disbursement_id FROM payment_samples
)
