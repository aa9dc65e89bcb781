-- The open findings of the checks $1 (scope disbursement or reference) that the night did not re-check,
-- staged as they are, with their keys: nothing they depend on changed, so a full run would give these very
-- rows. The lifecycle then treats them as found again (insert_exceptions.sql): the same status, first_seen
-- kept. One row per open finding: the cost follows the findings open, not the history.
INSERT INTO check_stage
SELECT check_id, check_id, severity, disbursement_id, recipient_id, subject, currency, expected, actual, difference, detail,
  finding_key
FROM findings
WHERE state IN ('open', 'acknowledged') AND list_contains($1::VARCHAR[], check_id)
  AND finding_key NOT IN (SELECT finding_key FROM scope_decided)
