-- One entry of a finding's acknowledgement history ($1 key, $2 action ack|withdraw, $3 by, $4 at, $5 note),
-- numbered after the finding's last entry, with the finding's numbers as they are now.
INSERT INTO finding_acks (finding_key, seq, action, ack_by, ack_at, note, expected, actual, difference, currency)
SELECT f.finding_key,
  COALESCE((SELECT max(a.seq) FROM finding_acks AS a WHERE a.finding_key = f.finding_key), 0) + 1,
  $2, $3, CAST($4 AS TIMESTAMPTZ), $5, f.expected, f.actual, f.difference, f.currency
FROM findings AS f
WHERE f.finding_key = $1
