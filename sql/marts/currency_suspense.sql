-- Lines in another currency than their disbursement's: never added to the disbursement's currency (see
-- disbursement_totals), listed here in their own currency with the sign they would take in the identity,
-- for the close to hold in suspense (Journal: Reconciliation suspense, in the line's own currency).
CREATE OR REPLACE VIEW currency_suspense AS
SELECT
  month_of(d.delivered_at) AS month,
  d.disbursement_id,
  d.recipient_id,
  d.currency AS disbursement_currency,
  l.kind,
  l.line_no,
  l.reference,
  l.entry_type,
  l.currency,
  l.amount,
  l.signed_amount,
  l.amount_major,
  l.signed_amount_major
FROM payment_lines AS l
JOIN disbursements AS d ON d.disbursement_id = l.disbursement_id
WHERE l.currency IS DISTINCT FROM d.currency
  AND (l.kind <> 'adjustment' OR l.entry_type IN ('credit', 'debit'));
