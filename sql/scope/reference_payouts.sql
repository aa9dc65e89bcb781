-- The payouts whose payment_id the night re-checks (scope reference: src/checks/contract.ts), as a TEMP
-- table named payouts holding only what a check of that scope may read of a line: its disbursement, line
-- number, reference, payment_id, currency and amount (a check reading more fails here, by name, instead of
-- reading less than a full run). Every stored payout is looked at — a payment may have been settled first at
-- any time — but only these columns of it: the one pass over the history a night makes.
CREATE OR REPLACE TEMP TABLE payouts AS
SELECT disbursement_id, line_no, reference, payment_id, currency, amount
FROM {{db}}.main.payouts
WHERE payment_id IN (SELECT key FROM scope_keys)
