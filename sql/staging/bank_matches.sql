-- materialised: per check run (computed once when two or more checks read it, directly or through views built on it)
-- Which bank credit settled which disbursement, in this order, each step among what the
-- steps before it left:
--   batch (reference)  a credit naming several disbursements that add up to it (bank_batch_by_reference.sql)
--   single             a credit of the disbursement's amount: one credit settles one disbursement; a
--                      credit naming the disbursement is preferred, then the closest date; pairs are
--                      taken when each is the other's first choice, round after round (a tie — two equal
--                      disbursements, two equal credits — is settled in a later round)
--   fee                a credit short of the disbursement by at most the currency's bank-charge tolerance
--                      (bank_fee_tolerance: both its absolute and its percentage limit), naming it or from
--                      the provider (a counterparty whose credits settled the steps above): settled, the
--                      shortfall booked as the bank's charge
--   batch (sum)        a provider's credit equal to the exact sum of 2 to 4 of the disbursements of its
--                      account and currency in its window (the 12 closest by date are tried: a bounded
--                      search); kept only when exactly one such set exists and no other credit claims them
-- One query: every step is a CTE computed once (MATERIALIZED), so a view reading bank_matches twice does
-- not repeat the rounds.
CREATE OR REPLACE VIEW bank_matches AS
WITH RECURSIVE
by_ref AS MATERIALIZED (
  SELECT disbursement_id, statement_id, entry_ref, by_reference, days_after FROM bank_batch_by_reference
),
-- Round 1 runs over every candidate on an agreeing account at once; later rounds only over what it left
-- at least one pair is taken per round while any is left (the best pair overall is first on both
-- sides), at most 8 rounds.
-- the one-to-one candidates left once the batches by reference took theirs
cand AS MATERIALIZED (
  SELECT disbursement_id, statement_id, entry_ref, by_reference, days_after
  FROM bank_candidates AS k
  WHERE account_agrees
    AND NOT EXISTS (SELECT 1 FROM by_ref AS b WHERE b.disbursement_id = k.disbursement_id)
    AND NOT EXISTS (SELECT 1 FROM by_ref AS b WHERE b.statement_id = k.statement_id AND b.entry_ref = k.entry_ref)
),
-- round 1 over every candidate in one window pass: the pairs that are each other's first choice (nearly all)
first AS MATERIALIZED (
  SELECT disbursement_id, statement_id, entry_ref, by_reference, days_after,
    row_number() OVER (PARTITION BY disbursement_id ORDER BY by_reference DESC, abs(days_after), statement_id, entry_ref) = 1
    AND row_number() OVER (PARTITION BY statement_id, entry_ref ORDER BY by_reference DESC, abs(days_after), disbursement_id) = 1 AS taken
  FROM cand
),
-- the later rounds only over what round 1 left: neither its disbursement nor its credit taken
rounds(round, disbursement_id, statement_id, entry_ref, by_reference, days_after, taken) AS (
  SELECT 1, f.disbursement_id, f.statement_id, f.entry_ref, f.by_reference, f.days_after, false
  FROM first AS f
  WHERE NOT EXISTS (SELECT 1 FROM first AS t WHERE t.taken AND t.disbursement_id = f.disbursement_id)
    AND NOT EXISTS (SELECT 1 FROM first AS t WHERE t.taken AND t.statement_id = f.statement_id AND t.entry_ref = f.entry_ref)
  UNION ALL
  SELECT round + 1, disbursement_id, statement_id, entry_ref, by_reference, days_after,
    row_number() OVER (PARTITION BY disbursement_id ORDER BY by_reference DESC, abs(days_after), statement_id, entry_ref) = 1
    AND row_number() OVER (PARTITION BY statement_id, entry_ref ORDER BY by_reference DESC, abs(days_after), disbursement_id) = 1
  FROM (
    SELECT *,
      bool_or(taken) OVER (PARTITION BY disbursement_id) AS d_taken,
      bool_or(taken) OVER (PARTITION BY statement_id, entry_ref) AS c_taken
    FROM rounds
  ) AS last
  WHERE NOT d_taken AND NOT c_taken AND round < 8
),
single AS MATERIALIZED (
  SELECT disbursement_id, statement_id, entry_ref, by_reference, days_after FROM first WHERE taken
  UNION ALL
  SELECT disbursement_id, statement_id, entry_ref, by_reference, days_after FROM rounds WHERE taken
),
provider AS MATERIALIZED (
  SELECT DISTINCT lower(c.counterparty) AS name
  FROM (SELECT statement_id, entry_ref FROM single UNION SELECT statement_id, entry_ref FROM by_ref) AS m
  JOIN bank_credit_entries AS c ON c.statement_id = m.statement_id AND c.entry_ref = m.entry_ref
  WHERE c.counterparty IS NOT NULL
),
taken1 AS MATERIALIZED (
  SELECT disbursement_id, statement_id, entry_ref FROM by_ref UNION ALL SELECT disbursement_id, statement_id, entry_ref FROM single
),
free_d AS MATERIALIZED (
  SELECT * FROM bank_disbursements AS d WHERE NOT EXISTS (SELECT 1 FROM taken1 AS t WHERE t.disbursement_id = d.disbursement_id)
),
free_c AS MATERIALIZED (
  SELECT * FROM bank_credit_entries AS c WHERE NOT EXISTS (SELECT 1 FROM taken1 AS t WHERE t.statement_id = c.statement_id AND t.entry_ref = c.entry_ref)
),
fee_pairs AS (
  SELECT d.disbursement_id, c.statement_id, c.entry_ref, d.amount - c.amount AS fee,
    contains(c.refs, lower(d.disbursement_id)) AS by_reference,
    business_days_after(d.delivered_on, c.value_on) AS days_after
  FROM free_d AS d
  JOIN free_c AS c ON c.currency = d.currency AND c.amount < d.amount AND c.value_on >= d.delivered_on - INTERVAL 1 DAY
  LEFT JOIN bank_fee_tolerance AS own ON own.currency = d.currency
  LEFT JOIN bank_fee_tolerance AS every ON every.currency = '*'
  WHERE tail_agrees(d.tail, c.account_tail)
    AND in_bank_window(d.delivered_on, c.value_on)
    AND d.amount - c.amount <= COALESCE(own.max_fee_major, every.max_fee_major, 0) * currency_factor(d.currency)
    AND (d.amount - c.amount) * 100 <= COALESCE(own.max_percent, every.max_percent, 0) * d.amount
    AND (contains(c.refs, lower(d.disbursement_id)) OR lower(c.counterparty) IN (SELECT name FROM provider))
),
fee AS MATERIALIZED (
  SELECT disbursement_id, statement_id, entry_ref, by_reference, days_after, fee FROM (
    SELECT *,
      row_number() OVER (PARTITION BY disbursement_id ORDER BY by_reference DESC, fee, abs(days_after), statement_id, entry_ref) AS d_rank,
      row_number() OVER (PARTITION BY statement_id, entry_ref ORDER BY by_reference DESC, fee, abs(days_after), disbursement_id) AS c_rank
    FROM fee_pairs
  ) WHERE d_rank = 1 AND c_rank = 1
),
sum_c AS (
  SELECT * FROM free_c AS c
  WHERE NOT EXISTS (SELECT 1 FROM fee AS f WHERE f.statement_id = c.statement_id AND f.entry_ref = c.entry_ref)
    AND (lower(c.counterparty) IN (SELECT name FROM provider)
         OR EXISTS (SELECT 1 FROM bank_named AS n WHERE n.statement_id = c.statement_id AND n.entry_ref = c.entry_ref))
),
sum_d AS (
  SELECT * FROM free_d AS d WHERE d.amount > 0 AND NOT EXISTS (SELECT 1 FROM fee AS f WHERE f.disbursement_id = d.disbursement_id)
),
top AS MATERIALIZED (
  SELECT * FROM (
    SELECT c.statement_id, c.entry_ref, c.amount AS credit_amount, d.disbursement_id, d.amount,
      business_days_after(d.delivered_on, c.value_on) AS days_after,
      row_number() OVER (PARTITION BY c.statement_id, c.entry_ref ORDER BY abs(business_days_after(d.delivered_on, c.value_on)), d.disbursement_id) AS k
    FROM sum_c AS c
    JOIN sum_d AS d ON d.currency = c.currency AND d.amount < c.amount AND c.value_on >= d.delivered_on - INTERVAL 1 DAY
    WHERE tail_agrees(d.tail, c.account_tail) AND in_bank_window(d.delivered_on, c.value_on)
  ) WHERE k <= 12
),
s2 AS MATERIALIZED (
  SELECT a.statement_id, a.entry_ref, a.credit_amount, b.k AS last_k, [a.disbursement_id, b.disbursement_id] AS ids,
    CAST(a.amount AS HUGEINT) + b.amount AS total
  FROM top AS a JOIN top AS b ON b.statement_id = a.statement_id AND b.entry_ref = a.entry_ref AND b.k > a.k
  WHERE CAST(a.amount AS HUGEINT) + b.amount <= a.credit_amount
),
s3 AS MATERIALIZED (
  SELECT s.statement_id, s.entry_ref, s.credit_amount, t.k AS last_k, list_append(s.ids, t.disbursement_id) AS ids, s.total + t.amount AS total
  FROM s2 AS s JOIN top AS t ON t.statement_id = s.statement_id AND t.entry_ref = s.entry_ref AND t.k > s.last_k
  WHERE s.total + t.amount <= s.credit_amount
),
solutions AS (
  SELECT statement_id, entry_ref, ids FROM s2 WHERE total = credit_amount
  UNION ALL SELECT statement_id, entry_ref, ids FROM s3 WHERE total = credit_amount
  UNION ALL
  SELECT s.statement_id, s.entry_ref, list_append(s.ids, t.disbursement_id)
  FROM s3 AS s JOIN top AS t ON t.statement_id = s.statement_id AND t.entry_ref = s.entry_ref AND t.k > s.last_k
  WHERE s.total + t.amount = s.credit_amount
),
members AS MATERIALIZED (
  SELECT statement_id, entry_ref, unnest(ids) AS disbursement_id
  FROM (SELECT statement_id, entry_ref, any_value(ids) AS ids FROM solutions GROUP BY statement_id, entry_ref HAVING count(*) = 1)
),
by_sum AS (
  SELECT m.disbursement_id, m.statement_id, m.entry_ref, false AS by_reference, t.days_after
  FROM members AS m
  JOIN top AS t ON t.statement_id = m.statement_id AND t.entry_ref = m.entry_ref AND t.disbursement_id = m.disbursement_id
  -- a disbursement two credits' sums claim is left to the findings, with both credits
  WHERE NOT EXISTS (
    SELECT 1 FROM members AS x
    WHERE x.statement_id = m.statement_id AND x.entry_ref = m.entry_ref
      AND x.disbursement_id IN (SELECT disbursement_id FROM members GROUP BY disbursement_id HAVING count(*) > 1))
),
pairs AS (
  SELECT disbursement_id, statement_id, entry_ref, by_reference, days_after, 'single' AS match_kind, CAST(0 AS BIGINT) AS fee FROM single
  UNION ALL SELECT disbursement_id, statement_id, entry_ref, by_reference, days_after, 'batch', 0 FROM by_ref
  UNION ALL SELECT disbursement_id, statement_id, entry_ref, by_reference, days_after, 'fee', fee FROM fee
  UNION ALL SELECT disbursement_id, statement_id, entry_ref, by_reference, days_after, 'batch', 0 FROM by_sum
)
SELECT
  p.disbursement_id, d.recipient_id, d.currency, d.amount, d.delivered_at,
  p.statement_id, p.entry_ref, t.account AS bank_account, COALESCE(t.value_date, t.booking_date) AS credited_on,
  p.days_after AS business_days_after_delivery, p.by_reference AS matched_by_reference,
  t.remittance, t.end_to_end_id, t.counterparty,
  p.match_kind, t.amount AS credit_amount, p.fee,
  CAST(count(*) OVER (PARTITION BY p.statement_id, p.entry_ref) AS INTEGER) AS batch_size,
  to_major(d.amount, d.currency) AS amount_major,
  to_major(t.amount, d.currency) AS credit_amount_major,
  to_major(p.fee, d.currency) AS fee_major
FROM pairs AS p
JOIN disbursements AS d ON d.disbursement_id = p.disbursement_id
JOIN bank_transactions AS t ON t.statement_id = p.statement_id AND t.entry_ref = p.entry_ref;
