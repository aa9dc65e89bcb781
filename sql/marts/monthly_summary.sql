-- Per month of delivered_at (UTC, 'YYYY-MM') × recipient × currency: the components of the total
-- identity as non-negative magnitudes, so computed_net = payouts + credit_adjustments − refunds −
-- debit_adjustments and variance = disbursed_total − computed_net (the close's journal checks both).
-- Adjustments with another entry type are outside the identity and shown apart (other_adjustments).
-- Incomplete disbursements are included (their lines as far as read) and counted in `incomplete`.
CREATE OR REPLACE VIEW monthly_summary AS
WITH m AS (
  SELECT
    month_of(d.delivered_at) AS month,
    d.recipient_id,
    d.currency,
    d.amount,
    d.sync_status,
    t.*
  FROM disbursements AS d
  JOIN disbursement_totals AS t ON t.disbursement_id = d.disbursement_id
)
SELECT
  month,
  recipient_id,
  currency,
  CAST(COUNT(*) AS BIGINT) AS disbursements,
  CAST(SUM(CASE WHEN sync_status = 'incomplete' THEN 1 ELSE 0 END) AS BIGINT) AS incomplete,
  CAST(SUM(payouts_count) AS BIGINT) AS payouts_count,
  CAST(SUM(payouts_sum) AS HUGEINT) AS payouts,
  CAST(SUM(refunds_count) AS BIGINT) AS refunds_count,
  CAST(SUM(refunds_sum) AS HUGEINT) AS refunds,
  CAST(SUM(credits_sum) AS HUGEINT) AS credit_adjustments,
  CAST(SUM(debits_sum) AS HUGEINT) AS debit_adjustments,
  CAST(SUM(other_adjustments_sum) AS HUGEINT) AS other_adjustments,
  CAST(SUM(computed) AS HUGEINT) AS computed_net,
  CAST(SUM(amount) AS HUGEINT) AS disbursed_total,
  CAST(SUM(amount) AS HUGEINT) - CAST(SUM(computed) AS HUGEINT) AS variance,
  to_major(SUM(payouts_sum), currency) AS payouts_major,
  to_major(SUM(refunds_sum), currency) AS refunds_major,
  to_major(SUM(credits_sum), currency) AS credit_adjustments_major,
  to_major(SUM(debits_sum), currency) AS debit_adjustments_major,
  to_major(SUM(other_adjustments_sum), currency) AS other_adjustments_major,
  to_major(SUM(computed), currency) AS computed_net_major,
  to_major(SUM(amount), currency) AS disbursed_total_major,
  to_major(SUM(amount) - SUM(computed), currency) AS variance_major
FROM m
GROUP BY month, recipient_id, currency;
