-- Per delivery day (in the books' time zone, as daily_disbursed), the open findings on the disbursements delivered
-- that day (the Month sheets).
CREATE OR REPLACE VIEW daily_open_findings AS
SELECT CAST(d.delivered_at AT TIME ZONE books_tz() AS DATE) AS day, count(*) AS open_findings
FROM findings AS f
JOIN disbursements AS d ON d.disbursement_id = f.disbursement_id
WHERE f.state = 'open'
GROUP BY ALL;
