-- The trail's last entry (seq, hash), kept beside the chain so that appending never reads the chain.
SELECT seq, hash FROM audit_trail_head
