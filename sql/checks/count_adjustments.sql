-- number_of_adjustments must equal the adjustments received (stored + quarantined), see the line_counts view.
SELECT
  'count_adjustments' AS check_id,
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
WHERE kind = 'adjustment' AND announced <> received
