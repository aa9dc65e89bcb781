-- One entry of finding $1's acknowledgement history ($2 its seq), as stored.
SELECT * FROM finding_acks WHERE finding_key = $1 AND seq = $2
