-- Every disbursement's bank status counted (its settlement: settled, awaiting statement, unsettled, and
-- no statements per currency; bank_status.sql) for the mail, the alert and the metrics. Read only when
-- statements were ever imported.
SELECT settlement AS bank_status, CASE WHEN settlement = 'no statements' THEN currency END AS currency, count(*) AS disbursements
FROM bank_status
GROUP BY ALL
ORDER BY ALL
