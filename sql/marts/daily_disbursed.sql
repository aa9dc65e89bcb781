-- Per delivery day (UTC) and currency, how many disbursements and the total the service reported: the
-- Month sheets' table and charts (each currency on its own, never a total across currencies).
CREATE OR REPLACE VIEW daily_disbursed AS
SELECT
  CAST(delivered_at AT TIME ZONE 'UTC' AS DATE) AS day,
  currency,
  count(*) AS disbursements,
  CAST(sum(amount) AS HUGEINT) AS total
FROM disbursements
WHERE currency IS NOT NULL
GROUP BY ALL;
