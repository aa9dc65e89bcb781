-- check: bank_statement_gap
-- severity: error or warning
-- title: Bank statements with a gap
-- meaning: Two consecutive statements of an account leave business days no statement covers, or the
--   closing balance of one is not the opening balance of the next: entries may be missing.
-- next step: Ask the bank for the statements of the missing days (or the corrected one) and import them;
--   until then recon says "awaiting statement", never "not arrived", for windows across the gap.
-- requires: bank_transactions
--
-- Per account and currency, each statement after the one before it (bank_statement_sequence): an error
-- when the balance does not carry over (money moved that no statement shows), a warning when only dates
-- are missing and the balances carry over or are not stated (a bank holiday without a statement looks the
-- same: the warning names the days to confirm). Windows across the gap are not covered (bank_coverage).
SELECT
  CASE WHEN s.balance_break THEN 'error' ELSE 'warning' END AS severity,
  CAST(NULL AS VARCHAR) AS disbursement_id,
  CAST(NULL AS VARCHAR) AS recipient_id,
  'bank statements ' || s.account || ' ' || s.currency || ' before ' || strftime(s.period_from, '%Y-%m-%d') AS subject,
  s.currency,
  s.prev_closing_balance AS expected,
  s.opening_balance AS actual,
  CASE WHEN s.balance_break THEN s.opening_balance - s.prev_closing_balance END AS difference,
  'account ' || s.account || ' ' || s.currency || ': '
    || CASE WHEN s.date_hole THEN 'no statement covers ' || strftime(s.hole_from, '%Y-%m-%d')
         || CASE WHEN s.hole_to > s.hole_from THEN ' to ' || strftime(s.hole_to, '%Y-%m-%d') ELSE '' END
         || ' (between ' || COALESCE(s.prev_file_name, s.prev_statement_id) || ', to ' || strftime(s.prev_period_to, '%Y-%m-%d')
         || ', and ' || COALESCE(s.file_name, s.statement_id) || ', from ' || strftime(s.period_from, '%Y-%m-%d') || ')'
       ELSE 'the statements ' || COALESCE(s.prev_file_name, s.prev_statement_id) || ' and ' || COALESCE(s.file_name, s.statement_id) || ' follow each other'
       END
    || CASE WHEN s.balance_break
         THEN '; the closing balance ' || format_amount(s.prev_closing_balance, s.currency) || ' ' || s.currency
           || COALESCE(' of ' || strftime(s.prev_closing_date, '%Y-%m-%d'), '') || ' is not the next opening balance '
           || format_amount(s.opening_balance, s.currency) || ' ' || s.currency || COALESCE(' of ' || strftime(s.opening_date, '%Y-%m-%d'), '')
           || ' (a difference of ' || format_amount(s.opening_balance - s.prev_closing_balance, s.currency) || ' ' || s.currency || ')'
         WHEN s.prev_closing_balance IS NOT NULL AND s.opening_balance IS NOT NULL
         THEN '; the balance carries over (' || format_amount(s.opening_balance, s.currency) || ' ' || s.currency || ')'
         ELSE '' END AS detail
FROM bank_statement_sequence AS s
WHERE s.date_hole OR s.balance_break
