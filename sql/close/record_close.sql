-- The close itself: $1 month, $2 version, $3 closed_at, $4 run id, $5 workbook path, $6 accepted_by,
-- $7 accepted_note, $8 accepted (#27: the unaccounted money a person accepted; NULLs when none); who closed it
-- ($9 the person named, $10 operating-system user, $11 host), the acceptance's $12 user and $13 host, $14 its
-- state (accepted | pending | approved), its approval ($15 by, $16 at, $17 user, $18 host), and $19, $20 the
-- close's audit-trail entry (seq, hash). Its count and total from the disbursements just recorded for it
-- (one figure per close, summed over currencies only as a control count of subunits, never shown as money).
INSERT INTO closes (month, version, closed_at, run_id, workbook, disbursements, disbursed_total, accepted_by, accepted_note, accepted,
  closed_by, closed_os_user, closed_host, accepted_os_user, accepted_host, acceptance_state,
  approved_by, approved_at, approved_os_user, approved_host, trail_seq, trail_hash)
SELECT $1, $2, $3::TIMESTAMPTZ, $4, $5, count(*), CAST(coalesce(sum(amount), 0) AS HUGEINT), $6, $7, $8,
  $9, $10, $11, $12, $13, $14, $15, $16::TIMESTAMPTZ, $17, $18, $19, $20
FROM close_disbursements
WHERE month = $1 AND version = $2
