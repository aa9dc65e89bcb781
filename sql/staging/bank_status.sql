-- Per disbursement: settled by a credit (with how: match_kind, the bank's fee, the batch it was paid in),
-- awaiting a statement (none yet covers its window on its account), or unsettled (the statements cover
-- the window and no credit settled it).
CREATE OR REPLACE VIEW bank_status AS
WITH coverage AS (
  SELECT account_tail, max(COALESCE(booking_date, value_date)) AS covered_until
  FROM bank_transactions
  GROUP BY account_tail
),
d AS (
  SELECT disbursement_id, recipient_id, currency, amount, delivered_at, bank_account_number,
    account_digits_tail(bank_account_number) AS tail
  FROM disbursements
),
covered AS (
  SELECT d.disbursement_id, max(cv.covered_until) AS covered_until
  FROM d JOIN coverage AS cv ON d.tail <> '' AND right(COALESCE(cv.account_tail, ''), length(d.tail)) = d.tail
  GROUP BY d.disbursement_id
)
SELECT
  d.disbursement_id, d.recipient_id, d.currency, d.amount, d.delivered_at, d.bank_account_number,
  m.statement_id, m.entry_ref, m.credited_on, m.matched_by_reference, m.match_kind, m.credit_amount, m.fee, m.batch_size,
  c.covered_until,
  CASE
    WHEN m.disbursement_id IS NOT NULL THEN 'settled'
    WHEN c.covered_until IS NULL
      OR business_days_after(CAST(d.delivered_at AS DATE), c.covered_until) <= bank_window_days() THEN 'awaiting statement'
    ELSE 'unsettled'
  END AS bank_status
FROM d
LEFT JOIN bank_matches AS m ON m.disbursement_id = d.disbursement_id
LEFT JOIN covered AS c ON c.disbursement_id = d.disbursement_id;
