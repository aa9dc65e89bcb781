-- number_of_refunds must equal the refunds received for the disbursement: the ones stored plus the ones
-- received but quarantined as invalid (they were delivered, just not usable; invalid_record reports
-- them). Incomplete disbursements are skipped: not every line could be read.
-- A missing number_of_refunds is taken as 0 (a recipient without refunds).
WITH quarantined AS (
  SELECT disbursement_id, COUNT(*) AS n
  FROM current_quarantine
  WHERE in_store AND resource = 'refund'
  GROUP BY disbursement_id
)
SELECT
  'count_refunds' AS check_id,
  'error' AS severity,
  d.disbursement_id,
  d.recipient_id,
  'number_of_refunds' AS subject,
  CAST(NULL AS VARCHAR) AS currency,
  CAST(t.refunds_count + COALESCE(q.n, 0) AS BIGINT) AS expected,
  CAST(COALESCE(d.number_of_refunds, 0) AS BIGINT) AS actual,
  CAST(COALESCE(d.number_of_refunds, 0) - t.refunds_count - COALESCE(q.n, 0) AS BIGINT) AS difference,
  'disbursement states number_of_refunds ' || COALESCE(CAST(d.number_of_refunds AS VARCHAR), 'none (taken as 0)')
    || ' but ' || CAST(t.refunds_count + COALESCE(q.n, 0) AS VARCHAR) || ' refunds were received'
    || CASE WHEN COALESCE(q.n, 0) > 0
         THEN ' (' || CAST(t.refunds_count AS VARCHAR) || ' stored, ' || CAST(q.n AS VARCHAR) || ' quarantined)'
         ELSE '' END AS detail
FROM disbursements AS d
JOIN disbursement_totals AS t ON t.disbursement_id = d.disbursement_id
LEFT JOIN quarantined AS q ON q.disbursement_id = d.disbursement_id
WHERE d.sync_status <> 'incomplete'
  AND COALESCE(d.number_of_refunds, 0) <> t.refunds_count + COALESCE(q.n, 0)
