-- What a close of month $1 will count: its disbursements and their amounts summed over currencies (the
-- control figure record_close.sql stores), read before the close is recorded for its trail entry.
SELECT count(*) AS disbursements, CAST(coalesce(sum(amount), 0) AS HUGEINT) AS total
FROM disbursements
WHERE month_of(delivered_at) = $1
