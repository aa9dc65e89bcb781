-- materialised: per check run (computed once when two or more checks read it, directly or through views built on it)
-- Per disbursement in the store: counts and sums of its lines, by the sign they take in the total
-- identity, and the computed amount. From line_groups (each line table aggregated on its own by
-- disbursement, currency and entry type), so a disbursement with many payouts and many adjustments is
-- never multiplied out, and no line is joined to its disbursement: its few groups are, in one aggregate (#28).
-- Sums are HUGEINT (schema 001) and take only the lines in the disbursement's own currency: a line in
-- another currency is never added to it (currency_mismatch reports it, currency_suspense lists it in its
-- own currency). Counts are of every line received. Adjustments with another entry type are counted
-- apart (other_*).
-- A disbursement whose lines are archived (archived_disbursements, src/store/archive.ts) has no row: its lines
-- are not in the store, so nothing built on this view (the identity, the counts, reconciliation) judges it.
-- The join and the aggregate are two steps (the MATERIALIZED CTE): in one pipeline their hash tables were
-- held together, and over a million disbursements they outgrew --memory-mb 192 without spilling; apart,
-- each spills (docs/performance.md, "A year in one store").
CREATE OR REPLACE VIEW disbursement_totals AS
WITH g AS MATERIALIZED (
  SELECT d.disbursement_id, d.currency AS own, l.kind, l.entry_type, l.currency, l.n, l.total
  FROM disbursements AS d
  LEFT JOIN line_groups AS l ON l.disbursement_id = d.disbursement_id
  WHERE d.disbursement_id NOT IN (SELECT disbursement_id FROM archived_disbursements)
),
t AS (
  SELECT
    g.disbursement_id,
    SUM(g.n) FILTER (WHERE g.kind = 'payout') AS payouts_n,
    SUM(g.total) FILTER (WHERE g.kind = 'payout' AND g.currency IS NOT DISTINCT FROM g.own) AS payouts,
    SUM(g.n) FILTER (WHERE g.kind = 'refund') AS refunds_n,
    SUM(g.total) FILTER (WHERE g.kind = 'refund' AND g.currency IS NOT DISTINCT FROM g.own) AS refunds,
    SUM(g.n) FILTER (WHERE g.kind = 'adjustment') AS adjustments_n,
    SUM(g.n) FILTER (WHERE g.kind = 'adjustment' AND g.entry_type = 'credit') AS credits_n,
    SUM(g.total) FILTER (WHERE g.kind = 'adjustment' AND g.entry_type = 'credit' AND g.currency IS NOT DISTINCT FROM g.own) AS credits,
    SUM(g.n) FILTER (WHERE g.kind = 'adjustment' AND g.entry_type = 'debit') AS debits_n,
    SUM(g.total) FILTER (WHERE g.kind = 'adjustment' AND g.entry_type = 'debit' AND g.currency IS NOT DISTINCT FROM g.own) AS debits,
    -- an entry type neither credit nor debit, NULL included, is counted as other; its sum takes a named type only
    SUM(g.n) FILTER (WHERE g.kind = 'adjustment' AND (g.entry_type IS NULL OR g.entry_type NOT IN ('credit', 'debit'))) AS other_n,
    SUM(g.total) FILTER (WHERE g.kind = 'adjustment' AND g.entry_type NOT IN ('credit', 'debit') AND g.currency IS NOT DISTINCT FROM g.own) AS other,
    SUM(g.n) FILTER (WHERE g.currency IS DISTINCT FROM g.own) AS foreign_n
  FROM g
  GROUP BY g.disbursement_id
)
SELECT
  disbursement_id,
  CAST(COALESCE(payouts_n, 0) AS BIGINT) AS payouts_count,
  COALESCE(payouts, CAST(0 AS HUGEINT)) AS payouts_sum,
  CAST(COALESCE(refunds_n, 0) AS BIGINT) AS refunds_count,
  COALESCE(refunds, CAST(0 AS HUGEINT)) AS refunds_sum,
  CAST(COALESCE(adjustments_n, 0) AS BIGINT) AS adjustments_count,
  CAST(COALESCE(credits_n, 0) AS BIGINT) AS credits_count,
  COALESCE(credits, CAST(0 AS HUGEINT)) AS credits_sum,
  CAST(COALESCE(debits_n, 0) AS BIGINT) AS debits_count,
  COALESCE(debits, CAST(0 AS HUGEINT)) AS debits_sum,
  CAST(COALESCE(other_n, 0) AS BIGINT) AS other_adjustments_count,
  COALESCE(other, CAST(0 AS HUGEINT)) AS other_adjustments_sum,
  CAST(COALESCE(foreign_n, 0) AS BIGINT) AS foreign_lines,
  COALESCE(payouts, 0) + COALESCE(credits, 0) - COALESCE(refunds, 0) - COALESCE(debits, 0) AS computed
FROM t;
