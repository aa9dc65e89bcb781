-- number_of_refunds must equal the refunds received (stored + quarantined), see the line_counts view.
SELECT
  'count_refunds' AS check_id,
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
WHERE kind = 'refund' AND announced <> received
