-- What became of every credit and every disbursement, for the bank_* checks and the Bank sheets.
-- Every credit with what became of it: the disbursement it settled (the first, for a batch credit, and how
-- many it settled), and the one it names (matched or not).
CREATE OR REPLACE VIEW bank_credits AS
WITH settled AS (
  SELECT statement_id, entry_ref, min(disbursement_id) AS disbursement_id, count(*) AS settled_count
  FROM bank_matches
  GROUP BY statement_id, entry_ref
)
SELECT
  t.statement_id, t.entry_ref, t.account, t.account_tail, COALESCE(t.value_date, t.booking_date) AS credited_on, t.amount, t.currency,
  t.remittance, t.end_to_end_id, t.counterparty, t.file_name,
  m.disbursement_id AS matched_disbursement_id,
  m.settled_count,
  n.disbursement_id AS named_disbursement_id
FROM bank_transactions AS t
LEFT JOIN settled AS m ON m.statement_id = t.statement_id AND m.entry_ref = t.entry_ref
LEFT JOIN bank_named AS n ON n.statement_id = t.statement_id AND n.entry_ref = t.entry_ref
WHERE t.direction = 'credit';
