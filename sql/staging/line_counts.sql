-- The line counts a disbursement announces against the lines received, one row per disbursement and
-- kind (payout | refund | adjustment): the ones stored plus the ones received but quarantined as invalid
-- (they were delivered, just not usable; invalid_record reports them). A missing number_of_… is taken as
-- 0 (a recipient without such lines). Incomplete disbursements are left out: not every line could be
-- read. count_payments, count_refunds and count_adjustments each select their kind's mismatches.
CREATE OR REPLACE VIEW line_counts AS
WITH quarantined AS (
  SELECT disbursement_id, resource, COUNT(*) AS n
  FROM current_quarantine
  WHERE in_store AND resource IN ('payout', 'refund', 'adjustment')
  GROUP BY disbursement_id, resource
),
-- one branch per kind (a filter on kind, as each count_* check has, keeps only its branch): a LATERAL
-- VALUES over the disbursement's columns was planned as a delim join, the dearest step of the view
counted AS (
  SELECT d.disbursement_id, d.recipient_id, d.number_of_payments, d.number_of_refunds, d.number_of_adjustments,
    t.payouts_count, t.refunds_count, t.adjustments_count
  FROM disbursements AS d
  JOIN disbursement_totals AS t ON t.disbursement_id = d.disbursement_id
  WHERE d.sync_status <> 'incomplete'
),
announced AS (
  SELECT disbursement_id, recipient_id, 'payout' AS kind, 'number_of_payments' AS field, 'payouts' AS plural,
    number_of_payments AS announced, payouts_count AS stored
  FROM counted
  UNION ALL
  SELECT disbursement_id, recipient_id, 'refund', 'number_of_refunds', 'refunds', number_of_refunds, refunds_count
  FROM counted
  UNION ALL
  SELECT disbursement_id, recipient_id, 'adjustment', 'number_of_adjustments', 'adjustments', number_of_adjustments, adjustments_count
  FROM counted
)
SELECT
  a.disbursement_id,
  a.recipient_id,
  a.kind,
  a.field,
  CAST(a.stored AS BIGINT) AS stored,
  CAST(COALESCE(q.n, 0) AS BIGINT) AS quarantined,
  CAST(a.stored + COALESCE(q.n, 0) AS BIGINT) AS received,
  CAST(COALESCE(a.announced, 0) AS BIGINT) AS announced,
  'disbursement states ' || a.field || ' ' || COALESCE(CAST(a.announced AS VARCHAR), 'none (taken as 0)')
    || ' but ' || CAST(a.stored + COALESCE(q.n, 0) AS VARCHAR) || ' ' || a.plural || ' were received'
    || CASE WHEN COALESCE(q.n, 0) > 0
         THEN ' (' || CAST(a.stored AS VARCHAR) || ' stored, ' || CAST(q.n AS VARCHAR) || ' quarantined)'
         ELSE '' END AS detail
FROM announced AS a
LEFT JOIN quarantined AS q ON q.disbursement_id = a.disbursement_id AND q.resource = a.kind;
