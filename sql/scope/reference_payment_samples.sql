-- The payment samples of a payment_id the night re-checks (scope reference), as a TEMP table.
CREATE OR REPLACE TEMP TABLE payment_samples AS
SELECT * FROM {{db}}.main.payment_samples
WHERE payment_id IN (SELECT key FROM scope_keys)
