-- Every disbursement's bank status counted (its settlement: settled, awaiting statement, unsettled; bank_status.sql) for the mail,
-- the alert and the metrics. Read only when statements were ever imported.
SELECT settlement AS bank_status, count(*) AS disbursements
FROM bank_status
GROUP BY settlement
ORDER BY settlement
