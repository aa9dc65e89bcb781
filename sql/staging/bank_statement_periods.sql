-- materialised: per check run (computed once when two or more checks read it, directly or through views built on it)
-- Every statement with the days it covers and the balances it states (bank_statements), and, for entries
-- imported before statements were recorded, one statement per statement id, account and currency whose
-- period is its entries' first and last day and which states no balances. An account is its account_key
-- (a hash of the full account), else its masked number.
CREATE OR REPLACE VIEW bank_statement_periods AS
SELECT statement_id, account_key AS account_id, account, account_tail, currency, format, file_name, period_from, period_to,
  opening_balance, opening_date, closing_balance, closing_date, credits, debits, entry_count, balance_proof, proof_difference
FROM bank_statements
UNION ALL
SELECT t.statement_id, COALESCE(t.account_key, 'masked:' || t.account) AS account_id, t.account, any_value(t.account_tail), t.currency,
  any_value(t.format), min(t.file_name), min(COALESCE(t.booking_date, t.value_date)), max(COALESCE(t.booking_date, t.value_date)),
  CAST(NULL AS BIGINT), CAST(NULL AS DATE), CAST(NULL AS BIGINT), CAST(NULL AS DATE),
  CAST(COALESCE(sum(t.amount) FILTER (WHERE t.direction = 'credit'), 0) AS HUGEINT),
  CAST(COALESCE(sum(t.amount) FILTER (WHERE t.direction = 'debit'), 0) AS HUGEINT),
  CAST(count(*) AS INTEGER), 'no balances', CAST(NULL AS BIGINT)
FROM bank_transactions AS t
WHERE NOT EXISTS (SELECT 1 FROM bank_statements AS s WHERE s.statement_id = t.statement_id)
  AND COALESCE(t.booking_date, t.value_date) IS NOT NULL
GROUP BY t.statement_id, COALESCE(t.account_key, 'masked:' || t.account), t.account, t.currency;
