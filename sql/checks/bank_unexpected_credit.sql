-- check: bank_unexpected_credit
-- severity: warning
-- title: Provider credit that matches nothing
-- meaning: A credit from the provider (it names a disbursement, or its payer's credits settle
--   disbursements) that settles nothing.
-- next step: Ask the provider what the credit is for; book it to suspense until explained.
-- requires: bank_transactions
--
-- A credit from the provider (it names a disbursement, or its counterparty is one whose credits settled
-- disbursements) that matches no disbursement, and is none of the cases above: money recon cannot place.
SELECT
  u.named_disbursement_id AS disbursement_id,
  CAST(NULL AS VARCHAR) AS recipient_id,
  'bank credit ' || strftime(u.credited_on, '%Y-%m-%d') || ' ' || u.entry_ref AS subject,
  u.currency,
  CAST(0 AS BIGINT) AS expected,
  u.amount AS actual,
  u.amount AS difference,
  'credit of ' || format_amount(u.amount, u.currency) || ' ' || u.currency || ' on ' || strftime(u.credited_on, '%Y-%m-%d')
    || ' to account ' || u.account || ' from ' || COALESCE(u.counterparty, '(no counterparty)')
    || COALESCE(' ("' || u.remittance || '")', '') || ' (' || COALESCE(u.file_name, 'statement') || ') settles no disbursement' AS detail
FROM bank_unmatched_credits AS u
WHERE u.reason = 'unexpected'
