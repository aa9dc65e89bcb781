-- Per month of delivery (UTC) and currency, what the bank statements say of the month's disbursements: the
-- close Journal's Bank, Bank charges, Cash in transit and Bank suspense lines (src/report/journal.ts). Each
-- disbursement counted once, in the first place that applies: settled (less a bank fee), credited short,
-- credited on another account, awaiting a statement (also 'no statements'), not arrived, credited on an
-- unbalanced statement (bank_status's words: short and over are both 'short', by a negative amount when
-- over; a credit in another currency counts as not arrived).
CREATE OR REPLACE VIEW bank_month_split AS
WITH placed AS (
  SELECT month_of(s.delivered_at) AS month, s.currency, s.amount, s.credited, COALESCE(s.fee, 0) AS fee,
    CASE WHEN s.bank_status = 'credited on an unbalanced statement' THEN 'unproven'
         WHEN s.settlement = 'settled' THEN 'settled'
         WHEN s.bank_status IN ('short', 'over') THEN 'short'
         WHEN s.bank_status = 'on another account' THEN 'other'
         WHEN s.bank_status IN ('awaiting statement', 'no statements') THEN 'awaiting'
         ELSE 'not_arrived' END AS place
  FROM bank_status AS s)
SELECT month, currency,
  CAST(COALESCE(sum(amount - fee) FILTER (WHERE place = 'settled'), 0) AS HUGEINT) AS settled,
  CAST(COALESCE(sum(fee) FILTER (WHERE place = 'settled'), 0) AS HUGEINT) AS bank_charges,
  CAST(COALESCE(sum(credited) FILTER (WHERE place = 'short'), 0) AS HUGEINT) AS short_credited,
  CAST(COALESCE(sum(amount - credited) FILTER (WHERE place = 'short'), 0) AS HUGEINT) AS short_by,
  CAST(COALESCE(sum(amount) FILTER (WHERE place = 'other'), 0) AS HUGEINT) AS other_account,
  CAST(COALESCE(sum(amount) FILTER (WHERE place = 'awaiting'), 0) AS HUGEINT) AS awaiting,
  CAST(COALESCE(sum(amount) FILTER (WHERE place = 'not_arrived'), 0) AS HUGEINT) AS not_arrived,
  CAST(COALESCE(sum(amount) FILTER (WHERE place = 'unproven'), 0) AS HUGEINT) AS unproven
FROM placed
GROUP BY month, currency;
