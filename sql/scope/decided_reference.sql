-- Open findings of the checks $1 (scope reference) that the night re-checked: their subject is a key in scope.
INSERT INTO scope_decided
SELECT finding_key FROM findings
WHERE state IN ('open', 'acknowledged') AND list_contains($1::VARCHAR[], check_id)
  AND subject IN (SELECT key FROM scope_keys)
