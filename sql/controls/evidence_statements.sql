-- The bank statements a close of month $1 used: every imported statement whose period overlaps the month.
SELECT statement_id, account, account_tail, currency, format, file_name, period_from, period_to,
  opening_balance, opening_date, closing_balance, closing_date, credits, debits, entry_count, balance_proof,
  proof_difference, imported_at
FROM bank_statements
WHERE period_from < CAST($1 || '-01' AS DATE) + INTERVAL 1 MONTH AND period_to >= CAST($1 || '-01' AS DATE)
ORDER BY currency, account, period_from, statement_id
