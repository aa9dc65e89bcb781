-- Per month of delivery (UTC) and currency, what the bank statements say of the month's disbursements: the
-- close Journal's Bank, Bank charges, Cash in transit and Bank suspense lines (src/report/journal.ts). Each
-- disbursement counted once, in the first place that applies: settled (less a bank fee), credited short,
-- credited on another account, awaiting a statement, not arrived.
CREATE OR REPLACE VIEW bank_month_split AS
WITH m AS (SELECT disbursement_id, currency, amount, month_of(delivered_at) AS month FROM disbursements),
short AS (
  SELECT u.disbursement_id, CAST(sum(u.amount) AS HUGEINT) AS credited
  FROM bank_unmatched_credits AS u JOIN m ON m.disbursement_id = u.disbursement_id AND m.currency = u.currency
  WHERE u.reason = 'amount_differs' GROUP BY u.disbursement_id),
other AS (SELECT DISTINCT disbursement_id FROM bank_unmatched_credits WHERE reason = 'account_mismatch'),
placed AS (
  SELECT m.month, m.currency, m.amount, sh.credited, COALESCE(s.fee, 0) AS fee,
    CASE WHEN s.bank_status = 'settled' THEN 'settled'
         WHEN sh.credited IS NOT NULL THEN 'short'
         WHEN o.disbursement_id IS NOT NULL THEN 'other'
         WHEN s.bank_status = 'awaiting statement' THEN 'awaiting'
         ELSE 'not_arrived' END AS place
  FROM m JOIN bank_status AS s ON s.disbursement_id = m.disbursement_id
  LEFT JOIN short AS sh ON sh.disbursement_id = m.disbursement_id
  LEFT JOIN other AS o ON o.disbursement_id = m.disbursement_id)
SELECT month, currency,
  CAST(COALESCE(sum(amount - fee) FILTER (WHERE place = 'settled'), 0) AS HUGEINT) AS settled,
  CAST(COALESCE(sum(fee) FILTER (WHERE place = 'settled'), 0) AS HUGEINT) AS bank_charges,
  CAST(COALESCE(sum(credited) FILTER (WHERE place = 'short'), 0) AS HUGEINT) AS short_credited,
  CAST(COALESCE(sum(amount - credited) FILTER (WHERE place = 'short'), 0) AS HUGEINT) AS short_by,
  CAST(COALESCE(sum(amount) FILTER (WHERE place = 'other'), 0) AS HUGEINT) AS other_account,
  CAST(COALESCE(sum(amount) FILTER (WHERE place = 'awaiting'), 0) AS HUGEINT) AS awaiting,
  CAST(COALESCE(sum(amount) FILTER (WHERE place = 'not_arrived'), 0) AS HUGEINT) AS not_arrived
FROM placed
GROUP BY month, currency;
