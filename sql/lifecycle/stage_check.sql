-- One check's rows staged under its file id ($1); the check file's SELECT goes where the braces are.
INSERT INTO check_stage
SELECT $1, r.check_id, r.severity, r.disbursement_id, r.recipient_id, r.subject, r.currency,
       r.expected, r.actual, r.difference, r.detail
FROM (
{{check}}
) AS r
