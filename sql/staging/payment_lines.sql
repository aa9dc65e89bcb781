-- Every payout, refund and adjustment with its disbursement, for tracing one payment and as the one
-- place that says how a line counts in the total identity (interface, Disbursement):
--   amount = Σ payouts + Σ credit adjustments − Σ refunds − Σ debit adjustments.
-- signed_amount is NULL for an adjustment that is neither credit nor debit (unknown_entry_type).
-- reference is what a settlement file calls the line: payout reference, refund_id, adjustment reference.
CREATE OR REPLACE VIEW payment_lines AS
WITH lines AS (
  SELECT
    p.disbursement_id, 'payout' AS kind, p.line_no, p.reference, p.payment_id,
    CAST(NULL AS VARCHAR) AS entry_type, CAST(NULL AS VARCHAR) AS category, p.status,
    p.currency, p.amount, p.amount AS signed_amount, p.run_id
  FROM payouts AS p
  UNION ALL
  SELECT
    r.disbursement_id, 'refund', r.line_no, r.refund_id, r.payment_id,
    NULL, NULL, NULL,
    r.currency, r.amount, -r.amount, r.run_id
  FROM refunds AS r
  UNION ALL
  SELECT
    a.disbursement_id, 'adjustment', a.line_no, a.reference,
    CASE WHEN a.entity = 'payment' THEN a.entity_reference END,
    a.entry_type, a.category, NULL,
    a.currency, a.amount,
    CASE a.entry_type WHEN 'credit' THEN a.amount WHEN 'debit' THEN -a.amount END,
    a.run_id
  FROM adjustments AS a
)
SELECT
  l.disbursement_id,
  d.recipient_id,
  d.delivered_at,
  d.currency AS disbursement_currency,
  l.kind,
  l.line_no,
  l.reference,
  l.payment_id,
  l.entry_type,
  l.category,
  l.status,
  l.currency,
  l.amount,
  l.signed_amount,
  l.run_id,
  to_major(l.amount, l.currency) AS amount_major,
  to_major(l.signed_amount, l.currency) AS signed_amount_major
FROM lines AS l
LEFT JOIN disbursements AS d ON d.disbursement_id = l.disbursement_id;
