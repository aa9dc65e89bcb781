-- One check's rows staged under its file id (file_id, a literal); the check file's SELECT goes where the
-- braces of check are. Each row is held to the contract as it is staged (severities: the severities the
-- check's header allows, a list literal): the first row whose check_id is not the file name, whose
-- severity the header does not allow or whose detail is empty stops the statement with what is wrong,
-- after the marker 'check contract: ' (the runner turns it into a CheckFileError naming the file). In the
-- statement itself, not a query per check after it (#28: those cost a few ms apiece); the expression is
-- evaluated on the check's own rows only, in the projection above its SELECT. Literals, not parameters:
-- the statement is planned once instead of prepared and bound (#28: 954–1 011 → 925–947 ms for the
-- checks of the 1M-payout bench store).
INSERT INTO check_stage
SELECT {{file_id}}, r.check_id, r.severity, r.disbursement_id, r.recipient_id, r.subject, r.currency,
       r.expected, r.actual, r.difference,
       CASE
         WHEN r.check_id IS DISTINCT FROM {{file_id}} THEN error('check contract: check_id is ' || COALESCE('''' || r.check_id || '''', 'NULL')
           || ', not the file name ''' || {{file_id}} || '''')
         WHEN r.severity IS NULL OR NOT list_contains({{severities}}::VARCHAR[], r.severity) THEN error('check contract: severity is '
           || COALESCE('''' || r.severity || '''', 'NULL') || ', not what its header allows (' || array_to_string({{severities}}::VARCHAR[], ' or ') || ')')
         WHEN r.detail IS NULL OR r.detail = '' THEN error('check contract: detail is empty for subject ' || COALESCE(r.subject, 'NULL'))
         ELSE r.detail
       END
FROM (
{{check}}
) AS r
