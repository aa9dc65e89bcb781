-- Per disbursement, what the bank statements say of its money (#27: one vocabulary, the same words in
-- the Bank sheets, the close, this view and the bank_* findings):
--   settled                 one credit of its amount settled it
--   fee deducted            a credit short by at most the bank-fee tolerance settled it (`fee` kept by the bank)
--   part of a batch credit  one credit settled it with other disbursements (`batch_size`)
--   short                   no credit settled it; credits naming it, in its currency, add up to less
--                           (`bank_difference` = credited − amount, negative: short by its absolute value)
--   over                    the same, adding up to more (`bank_difference` positive)
--   credited in another currency  a credit names it in another currency (never compared across currencies)
--   on another account      a credit naming it, of its amount, reached another account than its own
--   awaiting statement      none of the above and no statement yet covers its window on its account
--   not arrived             the statements cover its window and no credit settled it or names it
-- `settlement` is the coarse status the counts, the alert and the metrics use: settled (the first three),
-- awaiting statement, unsettled (the rest).
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
),
named AS (
  SELECT u.disbursement_id,
    CAST(sum(u.amount) FILTER (WHERE u.reason = 'amount_differs' AND u.currency = d.currency) AS HUGEINT) AS credited,
    bool_or(u.reason = 'amount_differs' AND u.currency <> d.currency) AS other_currency,
    bool_or(u.reason = 'account_mismatch') AS other_account
  FROM bank_unmatched_credits AS u
  JOIN d ON d.disbursement_id = u.disbursement_id
  WHERE u.reason IN ('amount_differs', 'account_mismatch')
  GROUP BY u.disbursement_id
),
s AS (
  SELECT
    d.disbursement_id, d.recipient_id, d.currency, d.amount, d.delivered_at, d.bank_account_number,
    m.statement_id, m.entry_ref, m.credited_on, m.matched_by_reference, m.match_kind, m.credit_amount, m.fee, m.batch_size,
    c.covered_until,
    CASE
      WHEN m.disbursement_id IS NOT NULL THEN 'settled'
      WHEN n.credited IS NULL AND NOT COALESCE(n.other_currency, false) AND NOT COALESCE(n.other_account, false)
        AND (c.covered_until IS NULL
          OR business_days_after(CAST(d.delivered_at AS DATE), c.covered_until) <= bank_window_days()) THEN 'awaiting statement'
      ELSE 'unsettled'
    END AS settlement,
    CASE
      WHEN m.match_kind = 'fee' THEN 'fee deducted'
      WHEN m.match_kind = 'batch' THEN 'part of a batch credit'
      WHEN m.disbursement_id IS NOT NULL THEN 'settled'
      WHEN n.credited IS NOT NULL AND n.credited < d.amount THEN 'short'
      WHEN n.credited IS NOT NULL THEN 'over'
      WHEN n.other_currency THEN 'credited in another currency'
      WHEN n.other_account THEN 'on another account'
      WHEN c.covered_until IS NULL
        OR business_days_after(CAST(d.delivered_at AS DATE), c.covered_until) <= bank_window_days() THEN 'awaiting statement'
      ELSE 'not arrived'
    END AS bank_status,
    CASE WHEN m.disbursement_id IS NULL THEN n.credited END AS credited,
    CASE WHEN m.disbursement_id IS NULL AND n.credited IS NOT NULL THEN n.credited - d.amount END AS bank_difference
  FROM d
  LEFT JOIN bank_matches AS m ON m.disbursement_id = d.disbursement_id
  LEFT JOIN covered AS c ON c.disbursement_id = d.disbursement_id
  LEFT JOIN named AS n ON n.disbursement_id = d.disbursement_id
)
SELECT s.*,
  to_major(amount, currency) AS amount_major,
  to_major(credit_amount, currency) AS credit_amount_major,
  to_major(fee, currency) AS fee_major,
  to_major(credited, currency) AS credited_major,
  to_major(bank_difference, currency) AS bank_difference_major
FROM s;
