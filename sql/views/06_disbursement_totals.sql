-- Per disbursement in the store: counts and sums of its lines, by the sign they take in the total
-- identity, and the computed amount. Each line table is aggregated on its own before the join, so a
-- disbursement with many payouts and many adjustments is never multiplied out.
-- Sums are HUGEINT (schema 001); adjustments with another entry type are counted apart (other_*).
CREATE OR REPLACE VIEW disbursement_totals AS
WITH p AS (
  SELECT disbursement_id, COUNT(*) AS n, CAST(SUM(amount) AS HUGEINT) AS total
  FROM payouts GROUP BY disbursement_id
),
r AS (
  SELECT disbursement_id, COUNT(*) AS n, CAST(SUM(amount) AS HUGEINT) AS total
  FROM refunds GROUP BY disbursement_id
),
a AS (
  SELECT
    disbursement_id,
    COUNT(*) AS n,
    SUM(CASE WHEN entry_type = 'credit' THEN 1 ELSE 0 END) AS credits_n,
    CAST(SUM(CASE WHEN entry_type = 'credit' THEN amount ELSE 0 END) AS HUGEINT) AS credits,
    SUM(CASE WHEN entry_type = 'debit' THEN 1 ELSE 0 END) AS debits_n,
    CAST(SUM(CASE WHEN entry_type = 'debit' THEN amount ELSE 0 END) AS HUGEINT) AS debits,
    SUM(CASE WHEN entry_type IN ('credit', 'debit') THEN 0 ELSE 1 END) AS other_n,
    CAST(SUM(CASE WHEN entry_type IN ('credit', 'debit') THEN 0 ELSE amount END) AS HUGEINT) AS other
  FROM adjustments GROUP BY disbursement_id
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
  COALESCE(p.total, 0) + COALESCE(a.credits, 0) - COALESCE(r.total, 0) - COALESCE(a.debits, 0) AS computed
FROM disbursements AS d
LEFT JOIN p ON p.disbursement_id = d.disbursement_id
LEFT JOIN r ON r.disbursement_id = d.disbursement_id
LEFT JOIN a ON a.disbursement_id = d.disbursement_id;
