-- The same adjustment reference settled more than once, in one disbursement or across disbursements.
-- The first occurrence (by delivered_at, disbursement_id, line_no) is legitimate; every later one is
-- flagged with its amount as the overpayment (expected 0). The ranking and the detail (first and
-- previous occurrence) live in the settled_repeats view, shared by the three duplicate checks.
SELECT
  'duplicate_adjustment' AS check_id,
  'error' AS severity,
  disbursement_id,
  recipient_id,
  dup_id AS subject,
  currency,
  CAST(0 AS BIGINT) AS expected,
  amount AS actual,
  amount AS difference,
  detail
FROM settled_repeats
WHERE kind = 'adjustment'
