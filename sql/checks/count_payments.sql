-- number_of_payments must equal the payouts received (stored + quarantined), see the line_counts view.
SELECT
  'count_payments' AS check_id,
  'error' AS severity,
  disbursement_id,
  recipient_id,
  field AS subject,
  CAST(NULL AS VARCHAR) AS currency,
  received AS expected,
  announced AS actual,
  announced - received AS difference,
  detail
FROM line_counts
WHERE kind = 'payout' AND announced <> received
