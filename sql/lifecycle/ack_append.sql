-- One entry of a finding's acknowledgement history ($1 key, $2 seq: the next of the finding's, $3 action
-- ack|withdraw|approve, $4 by, $5 at, $6 note, $7 the operating-system user and $8 host that ran the command,
-- $9 four_eyes: an acknowledgement pending a second person's approval, $10 approves: the seq an approval
-- approves), with the finding's numbers as they are now.
INSERT INTO finding_acks (finding_key, seq, action, ack_by, ack_at, note, expected, actual, difference, currency,
  os_user, host, four_eyes, approves)
SELECT f.finding_key, $2, $3, $4, CAST($5 AS TIMESTAMPTZ), $6, f.expected, f.actual, f.difference, f.currency,
  $7, $8, $9, $10
FROM findings AS f
WHERE f.finding_key = $1
