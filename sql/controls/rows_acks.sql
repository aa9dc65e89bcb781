-- Every acknowledgement, withdrawal and approval, oldest first.
SELECT * FROM finding_acks ORDER BY ack_at, finding_key, seq
