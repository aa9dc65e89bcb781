-- Every payout, refund and adjustment of the API as one list: its kind, what a settlement file calls it
-- (reference: payout reference, refund_id, adjustment reference), how it counts in the total identity
-- (interface, Disbursement: amount = Σ payouts + Σ credit adjustments − Σ refunds − Σ debit adjustments;
-- signed_amount NULL for an adjustment neither credit nor debit), and the n-th time its reference appears
-- among its disbursement's lines of its kind (occurrence, numbered when written).
CREATE OR REPLACE VIEW api_lines AS
SELECT
  p.disbursement_id, 'payout' AS kind, p.line_no, p.reference, p.payment_id,
  CAST(NULL AS VARCHAR) AS entry_type, CAST(NULL AS VARCHAR) AS category, p.status,
  p.currency, p.amount, p.amount AS signed_amount, p.run_id, p.occurrence
FROM payouts AS p
UNION ALL
SELECT
  r.disbursement_id, 'refund', r.line_no, r.refund_id, r.payment_id,
  NULL, NULL, NULL,
  r.currency, r.amount, -r.amount, r.run_id, r.occurrence
FROM refunds AS r
UNION ALL
SELECT
  a.disbursement_id, 'adjustment', a.line_no, a.reference,
  CASE WHEN a.entity = 'payment' THEN a.entity_reference END,
  a.entry_type, a.category, NULL,
  a.currency, a.amount,
  CASE a.entry_type WHEN 'credit' THEN a.amount WHEN 'debit' THEN -a.amount END,
  a.run_id, a.occurrence
FROM adjustments AS a;
