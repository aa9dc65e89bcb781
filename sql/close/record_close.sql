-- The close itself: $1 month, $2 version, $3 closed_at, $4 run id, $5 workbook path, $6 accepted_by,
-- $7 accepted_note, $8 accepted (#27: the unaccounted money a person accepted; NULLs when none); its count
-- and total from the disbursements just recorded for it (one figure per close, summed over currencies
-- only as a control count of subunits, never shown as money).
INSERT INTO closes (month, version, closed_at, run_id, workbook, disbursements, disbursed_total, accepted_by, accepted_note, accepted)
SELECT $1, $2, $3::TIMESTAMPTZ, $4, $5, count(*), CAST(coalesce(sum(amount), 0) AS HUGEINT), $6, $7, $8
FROM close_disbursements
WHERE month = $1 AND version = $2
