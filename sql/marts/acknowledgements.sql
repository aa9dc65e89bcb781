-- Every acknowledgement ever recorded, every withdrawal and approval (#27), oldest first per finding: who,
-- when, why, the numbers the entry covered, and whether it is the finding's current acknowledgement.
--   SELECT * FROM acknowledgements WHERE finding_key = '…' ORDER BY seq
CREATE OR REPLACE VIEW acknowledgements AS
SELECT
  a.finding_key,
  a.seq,
  a.action,
  a.ack_by,
  a.ack_at,
  a.note,
  f.check_id,
  f.disbursement_id,
  f.subject,
  a.currency,
  a.expected,
  a.actual,
  a.difference,
  to_major(a.expected, a.currency) AS expected_major,
  to_major(a.actual, a.currency) AS actual_major,
  to_major(a.difference, a.currency) AS difference_major,
  -- the acknowledgement in force: the finding's (an approval puts its approved acknowledgement in force)
  (a.action = 'ack' AND f.state = 'acknowledged' AND a.ack_by = f.ack_by AND a.ack_at = f.ack_at
    AND a.seq = max(CASE WHEN a.action = 'ack' AND a.ack_by = f.ack_by AND a.ack_at = f.ack_at THEN a.seq END)
      OVER (PARTITION BY a.finding_key)) AS current,
  f.state AS finding_state,
  -- who ran the command (the operating system's word beside the name given), and four eyes: an
  -- acknowledgement above its currency's threshold waits for an 'approve' entry naming its seq
  a.os_user,
  a.host,
  a.four_eyes,
  a.approves
FROM finding_acks AS a
LEFT JOIN findings AS f ON f.finding_key = a.finding_key;
