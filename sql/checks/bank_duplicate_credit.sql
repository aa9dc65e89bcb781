-- check: bank_duplicate_credit
-- severity: error
-- title: Credited twice by the bank
-- meaning: A second credit for a disbursement another credit already settled: the money arrived
--   twice.
-- next step: Tell the provider and arrange to return the second credit; do not book it as revenue.
-- requires: bank_transactions
--
-- A second credit for a disbursement another credit already settled, same amount and currency: the money
-- arrived twice (to be returned, or explained by the provider).
SELECT
  d.disbursement_id,
  d.recipient_id,
  'bank credit ' || strftime(u.credited_on, '%Y-%m-%d') AS subject,
  d.currency,
  CAST(0 AS BIGINT) AS expected,
  u.amount AS actual,
  u.amount AS difference,
  'a second credit of ' || format_amount(u.amount, u.currency) || ' ' || u.currency || ' on ' || strftime(u.credited_on, '%Y-%m-%d')
    || ' (' || COALESCE(u.file_name, 'statement') || ') names disbursement ' || d.disbursement_id
    || ', already settled by the credit of ' || strftime(m.credited_on, '%Y-%m-%d') AS detail
FROM bank_unmatched_credits AS u
JOIN disbursements AS d ON d.disbursement_id = u.disbursement_id
JOIN bank_matches AS m ON m.disbursement_id = d.disbursement_id
WHERE u.reason = 'duplicate'
