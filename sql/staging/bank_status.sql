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
--   credited on an unbalanced statement  a credit settles it, but on a statement whose balances do not
--                           prove its entries (bank_statement_unbalanced): not taken as money in the bank
--   awaiting statement      none of the above, and the statements of its account and currency do not cover
--                           its window yet (before the first statement, or in a hole): `uncovered_on` is the
--                           first day of the window no statement covers
--   not arrived             a covered span (bank_coverage.sql) holds its whole window — the delivery day to
--                           bank_window_days() business days after it — and no credit settled it or names it
--   no statements           no statement of its currency was ever imported
-- `settlement` is the coarse status the counts, the alert and the metrics use: settled (the first three),
-- awaiting statement (awaiting statement, credited on an unbalanced statement), no statements, unsettled
-- (the rest).
CREATE OR REPLACE VIEW bank_status AS
WITH d AS (
  SELECT disbursement_id, recipient_id, currency, amount, delivered_at, bank_account_number,
    account_digits_tail(bank_account_number) AS tail, CAST(delivered_at AS DATE) AS delivered_on
  FROM disbursements
),
reach AS (
  SELECT d.disbursement_id,
    max(cv.covered_to) FILTER (WHERE cv.covered_from <= d.delivered_on AND cv.covered_to >= d.delivered_on) AS reaches_to
  FROM d JOIN bank_coverage AS cv ON cv.currency = d.currency AND d.tail <> '' AND right(COALESCE(cv.account_tail, ''), length(d.tail)) = d.tail
  GROUP BY d.disbursement_id
),
covered AS (
  SELECT d.disbursement_id,
    CASE WHEN business_days_after(d.delivered_on, r.reaches_to) >= bank_window_days() THEN r.reaches_to END AS covered_until,
    CASE WHEN r.reaches_to IS NULL THEN d.delivered_on ELSE CAST(r.reaches_to + INTERVAL 1 DAY AS DATE) END AS uncovered_on
  FROM d LEFT JOIN reach AS r ON r.disbursement_id = d.disbursement_id
),
with_statements AS (
  SELECT DISTINCT currency FROM bank_statement_periods
),
unproven AS (
  SELECT DISTINCT t.statement_id, t.entry_ref
  FROM bank_statements AS u
  JOIN bank_transactions AS t ON t.statement_id = u.statement_id AND t.currency = u.currency
    AND COALESCE(t.booking_date, t.value_date) BETWEEN u.period_from AND u.period_to
  WHERE u.balance_proof = 'unbalanced'
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
    CASE WHEN m.disbursement_id IS NULL AND n.disbursement_id IS NULL AND c.covered_until IS NULL AND ws.currency IS NOT NULL
      THEN c.uncovered_on END AS uncovered_on,
    CASE
      WHEN up.entry_ref IS NOT NULL THEN 'awaiting statement'
      WHEN m.disbursement_id IS NOT NULL THEN 'settled'
      WHEN n.disbursement_id IS NULL AND ws.currency IS NULL THEN 'no statements'
      WHEN n.disbursement_id IS NULL AND c.covered_until IS NULL THEN 'awaiting statement'
      ELSE 'unsettled'
    END AS settlement,
    CASE
      WHEN up.entry_ref IS NOT NULL THEN 'credited on an unbalanced statement'
      WHEN m.match_kind = 'fee' THEN 'fee deducted'
      WHEN m.match_kind = 'batch' THEN 'part of a batch credit'
      WHEN m.disbursement_id IS NOT NULL THEN 'settled'
      WHEN n.credited IS NOT NULL AND n.credited < d.amount THEN 'short'
      WHEN n.credited IS NOT NULL THEN 'over'
      WHEN n.other_currency THEN 'credited in another currency'
      WHEN n.other_account THEN 'on another account'
      WHEN ws.currency IS NULL THEN 'no statements'
      WHEN c.covered_until IS NULL THEN 'awaiting statement'
      ELSE 'not arrived'
    END AS bank_status,
    CASE WHEN m.disbursement_id IS NULL THEN n.credited END AS credited,
    CASE WHEN m.disbursement_id IS NULL AND n.credited IS NOT NULL THEN n.credited - d.amount END AS bank_difference
  FROM d
  LEFT JOIN bank_matches AS m ON m.disbursement_id = d.disbursement_id
  LEFT JOIN covered AS c ON c.disbursement_id = d.disbursement_id
  LEFT JOIN named AS n ON n.disbursement_id = d.disbursement_id
  LEFT JOIN with_statements AS ws ON ws.currency = d.currency
  LEFT JOIN unproven AS up ON up.statement_id = m.statement_id AND up.entry_ref = m.entry_ref
)
SELECT s.*,
  to_major(amount, currency) AS amount_major,
  to_major(credit_amount, currency) AS credit_amount_major,
  to_major(fee, currency) AS fee_major,
  to_major(credited, currency) AS credited_major,
  to_major(bank_difference, currency) AS bank_difference_major
FROM s;
