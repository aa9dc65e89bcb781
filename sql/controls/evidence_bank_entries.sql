-- The bank entries of those statements, and every entry booked in month $1 (a statement imported before the
-- statements were recorded has entries only): as imported, with the line as the file held it (raw).
SELECT t.statement_id, t.entry_ref, t.format, t.account, t.booking_date, t.value_date, t.amount, t.currency, t.direction,
  t.end_to_end_id, t.remittance, t.counterparty, t.file_name, t.raw
FROM bank_transactions AS t
WHERE t.statement_id IN (
    SELECT statement_id FROM bank_statements
    WHERE period_from < CAST($1 || '-01' AS DATE) + INTERVAL 1 MONTH AND period_to >= CAST($1 || '-01' AS DATE))
  OR (t.booking_date >= CAST($1 || '-01' AS DATE) AND t.booking_date < CAST($1 || '-01' AS DATE) + INTERVAL 1 MONTH)
ORDER BY t.currency, t.booking_date, t.statement_id, t.entry_ref
