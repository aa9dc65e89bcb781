-- Each statement of an account and currency after the one before it (by period), with what lies between
-- them: a hole of dates (`hole_from` .. `hole_to`, at least one business day no statement covers: days a
-- bank sends no statement, Saturdays and Sundays, are no hole) and whether the balance carried over (the
-- previous closing balance is this opening balance). The first statement of an account has no previous.
CREATE OR REPLACE VIEW bank_statement_sequence AS
WITH s AS (
  SELECT *,
    max(period_to) OVER (PARTITION BY account_id, currency ORDER BY period_from, period_to, statement_id
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS covered_before,
    lag(statement_id) OVER w AS prev_statement_id,
    lag(file_name) OVER w AS prev_file_name,
    lag(closing_balance) OVER w AS prev_closing_balance,
    lag(closing_date) OVER w AS prev_closing_date,
    lag(period_to) OVER w AS prev_period_to
  FROM bank_statement_periods
  WINDOW w AS (PARTITION BY account_id, currency ORDER BY period_from, period_to, statement_id)
)
SELECT *,
  covered_before IS NOT NULL AND business_days_after(covered_before, CAST(period_from - INTERVAL 1 DAY AS DATE)) > 0 AS date_hole,
  CAST(covered_before + INTERVAL 1 DAY AS DATE) AS hole_from,
  CAST(period_from - INTERVAL 1 DAY AS DATE) AS hole_to,
  prev_closing_balance IS NOT NULL AND opening_balance IS NOT NULL AND prev_closing_balance <> opening_balance AS balance_break
FROM s;
