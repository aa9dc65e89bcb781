-- The disbursement a credit names (the first, when it names several).
CREATE OR REPLACE VIEW bank_named AS
SELECT statement_id, entry_ref, min(disbursement_id) AS disbursement_id
FROM bank_named_all
GROUP BY statement_id, entry_ref;
