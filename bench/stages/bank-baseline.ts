// The fair baseline of bank_ratio: the matching itself — which credit settled which disbursement —
// computed by the simplest correct query over the raw tables, written here rather than taken from recon's
// views (sql/staging/bank_*.sql) so that the ratio measures recon's shape against the bare work:
//   batch by reference  a credit naming two or more disbursements in its window that add up to it exactly
//   single              a credit of the disbursement's amount, pairs taken when each is the other's first
//                       choice (naming first, then the closest date), round after round over what is left
//   fee                 a credit short by at most the tolerance, naming the disbursement or from a
//                       counterparty whose credits settled above, mutual best
//   batch by sum        a named or provider credit equal to 2 to 4 of the 12 closest free disbursements,
//                       kept when exactly one set exists and no other credit claims its members
// The stage holds it to recon's bank_matches (the same pairs and kinds) before timing either.
// No macros and no views: the business days are written out (weekdays up to b less those up to a).
const WEEKDAYS = (day: string) => `((datediff('day', DATE '0001-01-01', ${day}) + 1) // 7 * 5 + least((datediff('day', DATE '0001-01-01', ${day}) + 1) % 7, 5))`;
const BDAYS = (from: string, to: string) => `CASE WHEN ${to} < ${from} THEN -1 ELSE ${WEEKDAYS(to)} - ${WEEKDAYS(from)} END`;
const IN_WINDOW = (d: string, c: string) =>
  `${c}.currency = ${d}.currency AND ${c}.day >= ${d}.day - 1 AND ${BDAYS(`${d}.day`, `${c}.day`)} <= (SELECT days FROM w)
   AND (${d}.tail = '' OR right(${c}.tail, length(${d}.tail)) = ${d}.tail)`;

export const BASELINE_MATCHES = `
WITH RECURSIVE
w AS (SELECT max(window_business_days) AS days FROM bank_settings),
d AS MATERIALIZED (
  SELECT disbursement_id AS id, lower(disbursement_id) AS lid, currency, amount, CAST(delivered_at AS DATE) AS day,
    right(regexp_replace(COALESCE(bank_account_number, ''), '[^0-9]', '', 'g'), 4) AS tail
  FROM disbursements),
c AS MATERIALIZED (
  SELECT statement_id AS sid, entry_ref AS eref, currency, amount, COALESCE(value_date, booking_date) AS day,
    COALESCE(account_tail, '') AS tail, lower(concat_ws(' ', remittance, end_to_end_id, batch_refs)) AS refs, lower(counterparty) AS who
  FROM bank_transactions WHERE direction = 'credit'),
named AS MATERIALIZED (
  SELECT DISTINCT w.sid, w.eref, d.id
  FROM (SELECT sid, eref, unnest(regexp_split_to_array(refs, '[^a-z0-9_-]+')) AS word FROM c) AS w
  JOIN d ON d.lid = w.word),
-- batches by reference
ref_members AS MATERIALIZED (
  SELECT n.sid, n.eref, n.id
  FROM named AS n JOIN c ON c.sid = n.sid AND c.eref = n.eref JOIN d ON d.id = n.id
  WHERE ${IN_WINDOW('d', 'c')}
  QUALIFY count(*) OVER (PARTITION BY n.sid, n.eref) >= 2 AND sum(d.amount) OVER (PARTITION BY n.sid, n.eref) = any_value(c.amount) OVER (PARTITION BY n.sid, n.eref)),
by_ref AS MATERIALIZED (
  SELECT * FROM ref_members AS m
  WHERE NOT EXISTS (SELECT 1 FROM ref_members AS a JOIN ref_members AS b ON b.id = a.id AND (b.sid, b.eref) <> (a.sid, a.eref)
                    WHERE a.sid = m.sid AND a.eref = m.eref)),
-- one credit for one disbursement, mutual first choices round after round
cand AS MATERIALIZED (
  SELECT d.id, c.sid, c.eref, contains(c.refs, d.lid) AS by_ref, ${BDAYS('d.day', 'c.day')} AS days
  FROM d JOIN c ON c.amount = d.amount AND ${IN_WINDOW('d', 'c')}
  WHERE d.id NOT IN (SELECT id FROM by_ref) AND (c.sid, c.eref) NOT IN (SELECT (sid, eref) FROM by_ref)),
rounds(r, id, sid, eref, by_ref, days, taken) AS (
  SELECT 0, id, sid, eref, by_ref, days, false FROM cand
  UNION ALL
  SELECT r + 1, id, sid, eref, by_ref, days,
    row_number() OVER (PARTITION BY id ORDER BY by_ref DESC, abs(days), sid, eref) = 1
    AND row_number() OVER (PARTITION BY sid, eref ORDER BY by_ref DESC, abs(days), id) = 1
  FROM (SELECT *, bool_or(taken) OVER (PARTITION BY id) AS dt, bool_or(taken) OVER (PARTITION BY sid, eref) AS ct FROM rounds)
  WHERE NOT dt AND NOT ct AND r < 8),
single AS MATERIALIZED (SELECT id, sid, eref FROM rounds WHERE taken),
taken AS MATERIALIZED (SELECT id, sid, eref FROM single UNION ALL SELECT id, sid, eref FROM by_ref),
provider AS MATERIALIZED (SELECT DISTINCT c.who FROM taken JOIN c USING (sid, eref) WHERE c.who IS NOT NULL),
free_d AS MATERIALIZED (SELECT * FROM d WHERE id NOT IN (SELECT id FROM taken)),
free_c AS MATERIALIZED (SELECT * FROM c WHERE (sid, eref) NOT IN (SELECT (sid, eref) FROM taken)),
-- a bank's charge deducted
fee AS MATERIALIZED (
  SELECT d.id, c.sid, c.eref
  FROM free_d AS d JOIN free_c AS c ON c.amount < d.amount AND ${IN_WINDOW('d', 'c')}
  JOIN bank_fee_tolerance AS t ON t.currency = COALESCE((SELECT currency FROM bank_fee_tolerance WHERE currency = d.currency), '*')
  WHERE d.amount - c.amount <= t.max_fee_major * CASE WHEN d.currency IN ('CLP', 'JPY', 'VUV') THEN 1 WHEN d.currency = 'MGA' THEN 5
          WHEN d.currency = 'VND' THEN 10 WHEN d.currency IN ('BHD', 'KWD', 'LYD', 'OMR', 'TND') THEN 1000 ELSE 100 END
    AND (d.amount - c.amount) * 100 <= t.max_percent * d.amount
    AND (contains(c.refs, d.lid) OR c.who IN (SELECT who FROM provider))
  QUALIFY row_number() OVER (PARTITION BY d.id ORDER BY contains(c.refs, d.lid) DESC, d.amount - c.amount, abs(${BDAYS('d.day', 'c.day')}), c.sid, c.eref) = 1
    AND row_number() OVER (PARTITION BY c.sid, c.eref ORDER BY contains(c.refs, d.lid) DESC, d.amount - c.amount, abs(${BDAYS('d.day', 'c.day')}), d.id) = 1),
-- a batch credit found by its sum
top AS MATERIALIZED (
  SELECT c.sid, c.eref, c.amount AS credit, d.id, d.amount,
    row_number() OVER (PARTITION BY c.sid, c.eref ORDER BY abs(${BDAYS('d.day', 'c.day')}), d.id) AS k
  FROM free_c AS c JOIN free_d AS d ON d.amount > 0 AND d.amount < c.amount AND ${IN_WINDOW('d', 'c')}
  WHERE (c.sid, c.eref) NOT IN (SELECT (sid, eref) FROM fee) AND d.id NOT IN (SELECT id FROM fee)
    AND (c.who IN (SELECT who FROM provider) OR (c.sid, c.eref) IN (SELECT (sid, eref) FROM named))
  QUALIFY k <= 12),
sets AS (
  SELECT a.sid, a.eref, [a.id, b.id] AS ids, CAST(a.amount AS HUGEINT) + b.amount AS total, a.credit, b.k
  FROM top AS a JOIN top AS b ON (b.sid, b.eref) = (a.sid, a.eref) AND b.k > a.k
  UNION ALL
  SELECT s.sid, s.eref, list_append(s.ids, t.id), s.total + t.amount, s.credit, t.k
  FROM sets AS s JOIN top AS t ON (t.sid, t.eref) = (s.sid, s.eref) AND t.k > s.k
  WHERE len(s.ids) < 4 AND s.total < s.credit),
sum_members AS MATERIALIZED (
  SELECT sid, eref, unnest(any_value(ids)) AS id FROM sets WHERE total = credit GROUP BY sid, eref HAVING count(*) = 1),
by_sum AS (
  SELECT * FROM sum_members AS m
  WHERE NOT EXISTS (SELECT 1 FROM sum_members AS a JOIN sum_members AS b ON b.id = a.id AND (b.sid, b.eref) <> (a.sid, a.eref)
                    WHERE a.sid = m.sid AND a.eref = m.eref))
SELECT id AS disbursement_id, sid AS statement_id, eref AS entry_ref, 'single' AS match_kind FROM single
UNION ALL SELECT id, sid, eref, 'batch' FROM by_ref
UNION ALL SELECT id, sid, eref, 'fee' FROM fee
UNION ALL SELECT id, sid, eref, 'batch' FROM by_sum`;
