-- The last entry of finding $1's acknowledgement history (a pending acknowledgement is the last entry while
-- no approval or withdrawal follows it), and the seq the next entry takes.
SELECT a.*, (SELECT max(b.seq) FROM finding_acks AS b WHERE b.finding_key = $1) + 1 AS next_seq
FROM finding_acks AS a
WHERE a.finding_key = $1
ORDER BY a.seq DESC
LIMIT 1
