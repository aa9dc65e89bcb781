-- Open findings of the checks $1 (scope disbursement) that the night re-checked: of a disbursement in scope,
-- or of none (rows of no stored disbursement are in every world).
INSERT INTO scope_decided
SELECT finding_key FROM findings
WHERE state IN ('open', 'acknowledged') AND list_contains($1::VARCHAR[], check_id)
  AND (disbursement_id IS NULL OR disbursement_id IN (SELECT disbursement_id FROM scope_d))
