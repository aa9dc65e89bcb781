-- check: bank_missing_credit
-- severity: error
-- title: Money not in the bank
-- meaning: The bank statements cover the disbursement's window on its account, and no credit settled
--   it: the money has not arrived.
-- next step: Ask the provider for the payment trace (date, bank reference) and your bank whether the
--   transfer was received; keep it on Bank suspense until found.
-- requires: bank_transactions
--
-- A delivered disbursement no bank credit settled, although the account's statements already cover its
-- window (bank_status 'not arrived'; while no statement covers it, it is 'awaiting statement', not a
-- finding). A disbursement a credit names with another amount or on another account is reported by
-- bank_amount_differs / bank_account_mismatch instead.
SELECT
  s.disbursement_id,
  s.recipient_id,
  'bank credit' AS subject,
  s.currency,
  s.amount AS expected,
  CAST(0 AS BIGINT) AS actual,
  -s.amount AS difference,
  'not arrived: no credit of ' || format_amount(s.amount, s.currency) || ' ' || s.currency || ' reached the account '
    || COALESCE(s.bank_account_number, '(no account)') || ' within '
    || CAST(bank_window_days() AS VARCHAR)
    || ' business days of delivery on ' || strftime(s.delivered_at, '%Y-%m-%d')
    || '; its statements run to ' || strftime(s.covered_until, '%Y-%m-%d') AS detail
FROM bank_status AS s
WHERE s.bank_status = 'not arrived'
  AND s.disbursement_id NOT IN (
    SELECT disbursement_id FROM bank_unmatched_credits
    WHERE reason IN ('amount_differs', 'account_mismatch') AND disbursement_id IS NOT NULL
  )
