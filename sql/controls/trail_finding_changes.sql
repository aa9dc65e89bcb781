-- The findings whose state check run $1 changed, as the trail has not recorded it yet: a finding seen for the
-- first time or again (open), one re-opened because its numbers moved away from its acknowledgement (open),
-- one the run resolved (resolved). Only the findings the run touched are looked at (its exceptions and what
-- it resolved), so a night costs what it changed. 'acknowledged' is recorded by the acknowledgement's own
-- entry, never here: a row that says acknowledged without one is for `recon verify` to name. A page: after
-- key $2, $3 rows.
WITH touched AS (
  SELECT finding_key FROM exceptions WHERE run_id = $1
  UNION
  SELECT finding_key FROM findings WHERE resolved_run_id = $1
)
SELECT f.finding_key, f.state, f.check_id, f.disbursement_id, f.subject, f.currency, f.expected, f.actual, f.difference,
  t.state AS was
FROM findings AS f
JOIN touched AS u ON u.finding_key = f.finding_key
LEFT JOIN trail_finding_state AS t ON t.finding_key = f.finding_key
WHERE f.state IN ('open', 'resolved') AND t.state IS DISTINCT FROM f.state AND f.finding_key > $2
ORDER BY f.finding_key
LIMIT $3
