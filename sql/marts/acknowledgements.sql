-- Every acknowledgement ever recorded, and every withdrawal (#27), oldest first per finding: who, when,
-- why, the numbers the entry covered, and whether it is the finding's current acknowledgement.
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
  (a.action = 'ack' AND f.state = 'acknowledged'
    AND a.seq = max(a.seq) OVER (PARTITION BY a.finding_key)) AS current,
  f.state AS finding_state
FROM finding_acks AS a
LEFT JOIN findings AS f ON f.finding_key = a.finding_key;
