-- What a close contained: every disbursement delivered in the month, with the content hash that
-- post_close_change compares later. $1 month YYYY-MM, $2 version; the WHERE placeholder takes the month predicate.
INSERT INTO close_disbursements
SELECT $1, $2, disbursement_id, content_hash, amount, currency
FROM disbursements
WHERE :in_month
