-- The other findings run $1 saw again at $2 (after update_seen.sql, before insert_new.sql): nothing of them
-- moves but when they were last seen, two narrow columns (update_seen.sql says why not more).
UPDATE findings SET last_seen = CAST($2 AS TIMESTAMPTZ), last_run_id = $1
WHERE last_run_id IS DISTINCT FROM $1
  AND finding_key IN (SELECT finding_key FROM exceptions WHERE run_id = $1)
