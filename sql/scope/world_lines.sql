-- A line table's rows (payouts, refunds, adjustments, files, file lines) of the disbursements in scope that
-- were written since the last check run, as a TEMP table of the table's name (src/checks/scope.ts). Found
-- by the runs that wrote them (runs, literals): the table's zone maps on run_id skip the row groups of
-- earlier runs, so the cost follows the night, not the history.
CREATE OR REPLACE TEMP TABLE {{table}} AS
SELECT * FROM {{source}}
WHERE run_id IN ({{runs}})
  AND disbursement_id IN (SELECT disbursement_id FROM scope_d WHERE changed)
