-- The days each account's statements cover in each currency, as spans (`covered_from` .. `covered_to`):
-- the union of the periods of its statements that prove themselves or state no balances (an unbalanced
-- statement is evidence of nothing). A span ends where the next statement leaves a hole of business days
-- or does not open with the closing balance before it (money moved that no statement shows), so a window
-- across either is never covered. bank_status.sql reads it: "not arrived" only inside a span.
CREATE OR REPLACE VIEW bank_coverage AS
WITH s AS (
  SELECT account_id, account_tail, currency, statement_id, period_from, period_to, opening_balance,
    max(period_to) OVER w_before AS covered_before,
    lag(closing_balance) OVER w AS prev_closing_balance
  FROM bank_statement_periods
  WHERE balance_proof <> 'unbalanced'
  WINDOW w AS (PARTITION BY account_id, currency ORDER BY period_from, period_to, statement_id),
    w_before AS (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
),
starts AS (
  SELECT *,
    CASE WHEN covered_before IS NULL
      OR business_days_after(covered_before, CAST(period_from - INTERVAL 1 DAY AS DATE)) > 0
      OR (prev_closing_balance IS NOT NULL AND opening_balance IS NOT NULL AND prev_closing_balance <> opening_balance) THEN 1 ELSE 0 END AS starts
  FROM s
),
spans AS (
  SELECT *, sum(starts) OVER (PARTITION BY account_id, currency ORDER BY period_from, period_to, statement_id ROWS UNBOUNDED PRECEDING) AS span
  FROM starts
)
SELECT account_id, any_value(account_tail) AS account_tail, currency, min(period_from) AS covered_from, max(period_to) AS covered_to
FROM spans
GROUP BY account_id, currency, span;
