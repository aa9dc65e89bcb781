-- One check's rows staged under its id (file_id, a literal: the check file's name); the check file's SELECT
-- goes where the braces of check are, and returns only its rows. The check's severity comes from its header
-- (severity: a literal); a check whose header says "error or warning" returns a severity per row, held here
-- to what the header allows. A row whose severity the header does not allow, or whose detail is empty, stops
-- the statement with what is wrong, after the marker 'check contract: ' (the runner turns it into a
-- CheckFileError naming the file). In the statement itself, evaluated on the check's own rows only; literals,
-- not parameters, so the statement is planned once instead of prepared and bound (docs/performance.md).
INSERT INTO check_stage
SELECT {{file_id}}, {{file_id}}, {{severity}}, r.disbursement_id, r.recipient_id, r.subject, r.currency,
       r.expected, r.actual, r.difference,
       CASE
         WHEN r.detail IS NULL OR r.detail = '' THEN error('check contract: detail is empty for subject ' || COALESCE(r.subject, 'NULL'))
         ELSE r.detail
       END,
       CAST(NULL AS VARCHAR)
FROM (
{{check}}
) AS r
