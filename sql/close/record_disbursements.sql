-- What a close contained: every disbursement delivered in the month, with the content hash that
-- post_close_change compares later. $1 month YYYY-MM, $2 version.
INSERT INTO close_disbursements
SELECT $1, $2, disbursement_id, content_hash, amount, currency
FROM disbursements
WHERE month_of(delivered_at) = $1
