-- Every disbursement's bank status counted (settled, awaiting statement, unsettled) for the mail,
-- the alert and the metrics. Read only when statements were ever imported.
SELECT bank_status, count(*) AS disbursements
FROM bank_status
GROUP BY bank_status
ORDER BY bank_status
