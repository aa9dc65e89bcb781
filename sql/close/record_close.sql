-- The close itself: $1 month, $2 version, $3 closed_at, $4 run id, $5 workbook path; its count and total
-- from the disbursements just recorded for it (one figure per close, summed over currencies only as a
-- control count of subunits, never shown as money).
INSERT INTO closes
SELECT $1, $2, $3::TIMESTAMPTZ, $4, $5, count(*), CAST(coalesce(sum(amount), 0) AS HUGEINT)
FROM close_disbursements
WHERE month = $1 AND version = $2
