-- Per delivery day and currency, how many disbursements and the total the service reported: the Month
-- sheets' table and charts (each currency on its own, never a total across currencies). The day is the
-- books' (books_tz(): --books-tz of the last close), so the close's Month sheet adds up to its month.
CREATE OR REPLACE VIEW daily_disbursed AS
SELECT
  CAST(delivered_at AT TIME ZONE books_tz() AS DATE) AS day,
  currency,
  count(*) AS disbursements,
  CAST(sum(amount) AS HUGEINT) AS total
FROM disbursements
WHERE currency IS NOT NULL
GROUP BY ALL;
