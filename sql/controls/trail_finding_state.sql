-- Each finding's state as the trail now records it (the last staged entry that states one), so that the
-- next night appends only the findings whose state changed (trail_finding_changes.sql).
INSERT OR REPLACE INTO trail_finding_state
SELECT subject, state FROM (
  SELECT subject, json_extract_string(content, '$.state') AS state,
    row_number() OVER (PARTITION BY subject ORDER BY seq DESC) AS k
  FROM _trail_stage
  WHERE kind IN ('finding', 'ack') AND json_extract_string(content, '$.state') IS NOT NULL
) AS s
WHERE k = 1
