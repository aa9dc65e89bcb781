-- A close recorded since the last complete check run touches every disbursement it contains and every
-- stored disbursement of its month, by the UTC month post_close_change compares and by the books' month the
-- close recorded (month_of): one that arrived later, or moved month, is a finding of the close.
INSERT INTO scope_seed
WITH months AS (
  SELECT DISTINCT month FROM closes WHERE run_id NOT IN (SELECT run_id FROM checked_runs)
)
SELECT DISTINCT 'closes', disbursement_id, CAST(NULL AS VARCHAR)
FROM (
  SELECT cd.disbursement_id FROM close_disbursements AS cd WHERE cd.month IN (SELECT month FROM months)
  UNION ALL
  SELECT d.disbursement_id FROM disbursements AS d
  WHERE strftime(d.delivered_at AT TIME ZONE 'UTC', '%Y-%m') IN (SELECT month FROM months)
     OR month_of(d.delivered_at) IN (SELECT month FROM months)
) AS touched
WHERE disbursement_id IN (SELECT disbursement_id FROM disbursements)
