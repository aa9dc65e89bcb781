-- A table of one row or a few per disbursement (disbursements, history, samples, close rows): the rows of
-- the disbursements in scope, as a TEMP table of the table's name.
CREATE OR REPLACE TEMP TABLE {{table}} AS
SELECT * FROM {{source}}
WHERE disbursement_id IN (SELECT disbursement_id FROM scope_d)
