-- One statement of an import, unless the same statement (id, currency, period) is in the store already:
-- $1 statement_id … $17 balance_proof, $18 proof_difference, $19 run_id (src/store/bank.ts, in this order).
INSERT INTO bank_statements (statement_id, account_key, account, account_tail, currency, format, file_name, period_from, period_to,
  opening_balance, opening_date, closing_balance, closing_date, credits, debits, entry_count, balance_proof, proof_difference, run_id, imported_at)
SELECT $1, $2, $3, $4, $5, $6, $7, CAST($8 AS DATE), CAST($9 AS DATE), $10, CAST($11 AS DATE), $12, CAST($13 AS DATE),
  CAST($14 AS HUGEINT), CAST($15 AS HUGEINT), $16, $17, $18, $19, now()
WHERE NOT EXISTS (
  SELECT 1 FROM bank_statements
  WHERE statement_id = $1 AND currency = $5 AND period_from = CAST($8 AS DATE) AND period_to = CAST($9 AS DATE))
