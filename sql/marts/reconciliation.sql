-- One row per disbursement in the store: reported amount against the amount computed from its lines,
-- the components, and a status:
--   incomplete  lines could not all be read (computed is NULL: never reported as reconciled)
--   invalid     some records were quarantined
--   exceptions  at least one finding is open (new or still open; acknowledged ones do not count)
--   reconciled  none of the above
CREATE OR REPLACE VIEW reconciliation AS
WITH f AS (
  SELECT
    disbursement_id,
    SUM(CASE WHEN state = 'open' THEN 1 ELSE 0 END) AS open_n,
    SUM(CASE WHEN state = 'acknowledged' THEN 1 ELSE 0 END) AS ack_n
  FROM findings
  WHERE state IN ('open', 'acknowledged') AND disbursement_id IS NOT NULL
  GROUP BY disbursement_id
)
SELECT
  d.disbursement_id,
  d.recipient_id,
  d.delivered_at,
  d.currency,
  d.amount AS reported,
  CASE WHEN d.sync_status = 'incomplete' THEN NULL ELSE t.computed END AS computed,
  CASE WHEN d.sync_status = 'incomplete' THEN NULL ELSE d.amount - t.computed END AS difference,
  t.payouts_count,
  t.payouts_sum,
  t.refunds_count,
  t.refunds_sum,
  t.credits_count,
  t.credits_sum,
  t.debits_count,
  t.debits_sum,
  t.other_adjustments_count,
  t.other_adjustments_sum,
  CAST(COALESCE(f.open_n, 0) AS BIGINT) AS open_findings,
  CAST(COALESCE(f.ack_n, 0) AS BIGINT) AS acknowledged_findings,
  d.sync_status,
  d.sync_note,
  CASE
    WHEN d.sync_status = 'incomplete' THEN 'incomplete'
    WHEN d.sync_status = 'invalid' THEN 'invalid'
    WHEN COALESCE(f.open_n, 0) > 0 THEN 'exceptions'
    ELSE 'reconciled'
  END AS status,
  to_major(d.amount, d.currency) AS reported_major,
  to_major(CASE WHEN d.sync_status = 'incomplete' THEN NULL ELSE t.computed END, d.currency) AS computed_major,
  to_major(CASE WHEN d.sync_status = 'incomplete' THEN NULL ELSE d.amount - t.computed END, d.currency) AS difference_major,
  to_major(t.payouts_sum, d.currency) AS payouts_sum_major,
  to_major(t.refunds_sum, d.currency) AS refunds_sum_major,
  to_major(t.credits_sum, d.currency) AS credits_sum_major,
  to_major(t.debits_sum, d.currency) AS debits_sum_major,
  to_major(t.other_adjustments_sum, d.currency) AS other_adjustments_sum_major
FROM disbursements AS d
JOIN disbursement_totals AS t ON t.disbursement_id = d.disbursement_id
LEFT JOIN f ON f.disbursement_id = d.disbursement_id;
