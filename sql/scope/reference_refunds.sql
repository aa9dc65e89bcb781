-- The refunds whose refund_id the night re-checks (scope reference), as reference_payouts.sql.
CREATE OR REPLACE TEMP TABLE refunds AS
SELECT disbursement_id, line_no, refund_id, payment_id, currency, amount
FROM {{db}}.main.refunds
WHERE refund_id IN (SELECT key FROM scope_keys)
