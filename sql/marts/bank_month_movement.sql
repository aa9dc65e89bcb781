-- Per month of booking (the statement's own date) and currency, the movement the bank statements show
-- and what of it settled nothing: the close's Bank lines are held to it, so every bank entry of the month
-- reaches the close as matched, a debit, or unaccounted for by reason (src/report/journal.ts):
--   duplicate      a second credit for a disbursement another credit settled (to return)
--   unexpected     a credit from the provider that matches no disbursement
--   other_credits  a credit from someone else than the provider (bank_unmatched_credits reason NULL)
CREATE OR REPLACE VIEW bank_month_movement AS
SELECT strftime(COALESCE(t.booking_date, t.value_date), '%Y-%m') AS month, t.currency,
  CAST(COALESCE(sum(t.amount) FILTER (WHERE t.direction = 'credit'), 0) AS HUGEINT) AS credits,
  CAST(COALESCE(sum(t.amount) FILTER (WHERE t.direction = 'debit'), 0) AS HUGEINT) AS debits,
  CAST(COALESCE(sum(t.amount) FILTER (WHERE u.reason = 'duplicate'), 0) AS HUGEINT) AS duplicate,
  CAST(COALESCE(sum(t.amount) FILTER (WHERE u.reason = 'unexpected'), 0) AS HUGEINT) AS unexpected,
  CAST(COALESCE(sum(t.amount) FILTER (WHERE u.entry_ref IS NOT NULL AND u.reason IS NULL), 0) AS HUGEINT) AS other_credits
FROM bank_transactions AS t
LEFT JOIN bank_unmatched_credits AS u ON u.statement_id = t.statement_id AND u.entry_ref = t.entry_ref
WHERE COALESCE(t.booking_date, t.value_date) IS NOT NULL
GROUP BY ALL;
