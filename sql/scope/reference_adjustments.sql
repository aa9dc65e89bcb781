-- The adjustments whose reference the night re-checks (scope reference), as reference_payouts.sql.
CREATE OR REPLACE TEMP TABLE adjustments AS
SELECT disbursement_id, line_no, reference, entry_type, currency, amount
FROM {{db}}.main.adjustments
WHERE reference IN (SELECT key FROM scope_keys)
