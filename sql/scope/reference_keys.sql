-- The keys a night re-checks for the checks of scope reference ($1, their ids): those of the lines written
-- since the last check run (runs, literals: found by zone maps, as world_lines.sql), the payment_ids sampled
-- since or of a disbursement written since, and the subjects of the checks' open findings — a key a
-- restatement took away, or whose first settlement went, among them.
CREATE OR REPLACE TEMP TABLE scope_keys AS
SELECT payment_id AS key FROM {{db}}.main.payouts
WHERE run_id IN ({{runs}}) AND disbursement_id IN (SELECT disbursement_id FROM scope_d WHERE changed) AND payment_id IS NOT NULL
UNION
SELECT refund_id FROM {{db}}.main.refunds
WHERE run_id IN ({{runs}}) AND disbursement_id IN (SELECT disbursement_id FROM scope_d WHERE changed) AND refund_id IS NOT NULL
UNION
SELECT reference FROM {{db}}.main.adjustments
WHERE run_id IN ({{runs}}) AND disbursement_id IN (SELECT disbursement_id FROM scope_d WHERE changed) AND reference IS NOT NULL
UNION
SELECT payment_id FROM {{db}}.main.payment_samples
WHERE sampled_run_id NOT IN (SELECT run_id FROM checked_runs) OR disbursement_id IN (SELECT disbursement_id FROM scope_d)
UNION
SELECT subject FROM findings
WHERE state IN ('open', 'acknowledged') AND list_contains($1::VARCHAR[], check_id) AND subject IS NOT NULL
