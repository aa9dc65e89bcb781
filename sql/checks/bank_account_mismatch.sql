-- check: bank_account_mismatch
-- severity: error
-- title: Credited to another account
-- meaning: A credit names the disbursement, for its amount and in its window, on an account whose
--   last digits are not the masked bank_account_number's.
-- next step: Check which of your accounts received it and whether the recipient account on the
--   provider is right; move the money if needed.
-- requires: bank_transactions
--
-- A credit naming a disbursement, with its amount and currency and within its window, but on an account
-- whose last digits are not the ones the service shows in the disbursement's masked bank_account_number:
-- the money went to (or was booked on) another account.
SELECT
  d.disbursement_id,
  d.recipient_id,
  'bank account' AS subject,
  d.currency,
  d.amount AS expected,
  u.amount AS actual,
  CAST(0 AS BIGINT) AS difference,
  'on another account: the credit of ' || format_amount(u.amount, u.currency) || ' ' || u.currency || ' on ' || strftime(u.credited_on, '%Y-%m-%d')
    || ' names disbursement ' || d.disbursement_id || ' but was booked on account ' || u.account
    || ', while the disbursement was sent to ' || COALESCE(d.bank_account_number, '(no account)') AS detail
FROM bank_unmatched_credits AS u
JOIN disbursements AS d ON d.disbursement_id = u.disbursement_id
WHERE u.reason = 'account_mismatch'
