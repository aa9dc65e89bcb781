-- check: bank_amount_differs
-- severity: error
-- title: Bank credit of another amount
-- meaning: A credit names the disbursement but for another amount than it, beyond the bank-fee
--   tolerance (a fee or an FX deduction): both amounts and the difference are shown.
-- next step: Ask the bank what it deducted and the provider what it sent; book the difference (bank
--   charges or a claim) once explained, then acknowledge.
-- requires: bank_transactions
--
-- A credit that names a disbursement no other credit settled, for another amount than the disbursement's:
-- fees or FX deducted on the way. A shortfall within the bank-fee tolerance (--bank-fee-tolerance) is the
-- bank's charge: that credit settles the disbursement (bank_matches.match_kind 'fee') and is not reported.
-- Both amounts are shown; the difference only when both are in the disbursement's currency (never across
-- currencies).
SELECT
  d.disbursement_id,
  d.recipient_id,
  'bank credit ' || strftime(u.credited_on, '%Y-%m-%d') AS subject,
  d.currency,
  d.amount AS expected,
  CASE WHEN u.currency = d.currency THEN u.amount END AS actual,
  CASE WHEN u.currency = d.currency THEN u.amount - d.amount END AS difference,
  CASE WHEN u.currency <> d.currency THEN 'credited in another currency: '
       WHEN u.amount < d.amount THEN 'short by ' || format_amount(d.amount - u.amount, d.currency) || ' ' || d.currency || ': '
       ELSE 'over by ' || format_amount(u.amount - d.amount, d.currency) || ' ' || d.currency || ': ' END
    || 'the credit of ' || format_amount(u.amount, u.currency) || ' ' || u.currency || ' on ' || strftime(u.credited_on, '%Y-%m-%d')
    || ' (' || COALESCE(u.file_name, 'statement') || ') names disbursement ' || d.disbursement_id || ' of '
    || format_amount(d.amount, d.currency) || ' ' || d.currency
    || CASE WHEN u.currency = d.currency
         THEN CASE WHEN u.amount < d.amount THEN ' (fees or FX deducted?)' ELSE ' (paid twice, or with another payment?)' END
         ELSE ' (converted on the way?)' END AS detail
FROM bank_unmatched_credits AS u
JOIN disbursements AS d ON d.disbursement_id = u.disbursement_id
WHERE u.reason = 'amount_differs'
