-- Every payout, refund and adjustment with its disbursement, for tracing one payment: api_lines (which
-- says how a line counts in the total identity, and what a settlement file calls it) with the
-- disbursement's recipient, delivery and currency, and the amounts in major units.
CREATE OR REPLACE VIEW payment_lines AS
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
FROM api_lines AS l
LEFT JOIN disbursements AS d ON d.disbursement_id = l.disbursement_id;
