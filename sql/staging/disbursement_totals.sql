-- materialised: per check run (computed once when two or more checks read it, directly or through views built on it)
-- Per disbursement in the store: counts and sums of its lines, by the sign they take in the total
-- identity, and the computed amount. From line_groups (each line table aggregated on its own by
-- disbursement, currency and entry type), so a disbursement with many payouts and many adjustments is
-- never multiplied out, and no line is joined to its disbursement: the few groups are (#28).
-- Sums are HUGEINT (schema 001) and take only the lines in the disbursement's own currency: a line in
-- another currency is never added to it (currency_mismatch reports it, currency_suspense lists it in its
-- own currency). Counts are of every line received. Adjustments with another entry type are counted
-- apart (other_*).
CREATE OR REPLACE VIEW disbursement_totals AS
WITH own AS (
  SELECT disbursement_id, currency FROM disbursements
),
p AS (
  SELECT g.disbursement_id, SUM(g.n) AS n,
    SUM(g.total) FILTER (WHERE g.currency IS NOT DISTINCT FROM o.currency) AS total,
    SUM(g.n) FILTER (WHERE g.currency IS DISTINCT FROM o.currency) AS foreign_n
  FROM line_groups AS g JOIN own AS o ON o.disbursement_id = g.disbursement_id
  WHERE g.kind = 'payout'
  GROUP BY g.disbursement_id
),
r AS (
  SELECT g.disbursement_id, SUM(g.n) AS n,
    SUM(g.total) FILTER (WHERE g.currency IS NOT DISTINCT FROM o.currency) AS total,
    SUM(g.n) FILTER (WHERE g.currency IS DISTINCT FROM o.currency) AS foreign_n
  FROM line_groups AS g JOIN own AS o ON o.disbursement_id = g.disbursement_id
  WHERE g.kind = 'refund'
  GROUP BY g.disbursement_id
),
a AS (
  SELECT
    g.disbursement_id,
    SUM(g.n) AS n,
    SUM(CASE WHEN g.entry_type = 'credit' THEN g.n ELSE 0 END) AS credits_n,
    SUM(g.total) FILTER (WHERE g.entry_type = 'credit' AND g.currency IS NOT DISTINCT FROM o.currency) AS credits,
    SUM(CASE WHEN g.entry_type = 'debit' THEN g.n ELSE 0 END) AS debits_n,
    SUM(g.total) FILTER (WHERE g.entry_type = 'debit' AND g.currency IS NOT DISTINCT FROM o.currency) AS debits,
    SUM(CASE WHEN g.entry_type IN ('credit', 'debit') THEN 0 ELSE g.n END) AS other_n,
    SUM(g.total) FILTER (WHERE g.entry_type NOT IN ('credit', 'debit') AND g.currency IS NOT DISTINCT FROM o.currency) AS other,
    SUM(g.n) FILTER (WHERE g.currency IS DISTINCT FROM o.currency) AS foreign_n
  FROM line_groups AS g JOIN own AS o ON o.disbursement_id = g.disbursement_id
  WHERE g.kind = 'adjustment'
  GROUP BY g.disbursement_id
)
SELECT
  d.disbursement_id,
  CAST(COALESCE(p.n, 0) AS BIGINT) AS payouts_count,
  COALESCE(p.total, CAST(0 AS HUGEINT)) AS payouts_sum,
  CAST(COALESCE(r.n, 0) AS BIGINT) AS refunds_count,
  COALESCE(r.total, CAST(0 AS HUGEINT)) AS refunds_sum,
  CAST(COALESCE(a.n, 0) AS BIGINT) AS adjustments_count,
  CAST(COALESCE(a.credits_n, 0) AS BIGINT) AS credits_count,
  COALESCE(a.credits, CAST(0 AS HUGEINT)) AS credits_sum,
  CAST(COALESCE(a.debits_n, 0) AS BIGINT) AS debits_count,
  COALESCE(a.debits, CAST(0 AS HUGEINT)) AS debits_sum,
  CAST(COALESCE(a.other_n, 0) AS BIGINT) AS other_adjustments_count,
  COALESCE(a.other, CAST(0 AS HUGEINT)) AS other_adjustments_sum,
  CAST(COALESCE(p.foreign_n, 0) + COALESCE(r.foreign_n, 0) + COALESCE(a.foreign_n, 0) AS BIGINT) AS foreign_lines,
  COALESCE(p.total, 0) + COALESCE(a.credits, 0) - COALESCE(r.total, 0) - COALESCE(a.debits, 0) AS computed
FROM disbursements AS d
LEFT JOIN p ON p.disbursement_id = d.disbursement_id
LEFT JOIN r ON r.disbursement_id = d.disbursement_id
LEFT JOIN a ON a.disbursement_id = d.disbursement_id;
