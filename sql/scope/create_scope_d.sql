-- The disbursements a group of checks re-checks: the seeds of the sources its checks read (sources, a list
-- literal). changed: written since (its lines carry the run id); stale: stored and unchanged, in scope
-- for a row added beside it (its lines are read by disbursement).
CREATE OR REPLACE TEMP TABLE scope_d AS
SELECT disbursement_id,
  bool_or(source = 'disbursements') AS changed,
  NOT bool_or(source IN ('disbursements', 'gone')) AS stale
FROM scope_seed
WHERE list_contains({{sources}}::VARCHAR[], source)
GROUP BY disbursement_id
