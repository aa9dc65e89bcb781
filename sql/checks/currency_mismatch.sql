-- check: currency_mismatch
-- severity: error
-- title: A line in another currency
-- meaning: A line is in another currency than its disbursement; it is held in suspense in its own
--   currency.
-- next step: Ask the provider to restate the disbursement in one currency; do not book the line into
--   the disbursement currency.
-- scope: disbursement
--
-- Every payout, refund and adjustment is settled in its disbursement's currency; a line in another
-- currency cannot be added into the amount. One finding per line; currency/actual are the line's own.
SELECT
  l.disbursement_id,
  l.recipient_id,
  COALESCE(l.reference, l.kind || ' line ' || CAST(l.line_no AS VARCHAR)) AS subject,
  l.currency,
  CAST(NULL AS BIGINT) AS expected,
  l.amount AS actual,
  CAST(NULL AS BIGINT) AS difference,
  l.kind || ' ' || COALESCE(l.reference, '(no reference)') || ' (line ' || CAST(l.line_no AS VARCHAR) || ') is '
    || format_amount(l.amount, l.currency) || ' ' || COALESCE(l.currency, '(no currency)')
    || ' in a ' || COALESCE(l.disbursement_currency, '(no currency)') || ' disbursement' AS detail
FROM payment_lines AS l
WHERE l.disbursement_currency IS NOT NULL
  AND (l.currency IS NULL OR l.currency <> l.disbursement_currency)
