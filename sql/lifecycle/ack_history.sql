-- The acknowledgement history of finding $1, oldest first.
SELECT seq, action, ack_by, ack_at, note, expected, actual, difference
FROM finding_acks
WHERE finding_key = $1
ORDER BY seq
