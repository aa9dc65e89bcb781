-- A page of the audit trail after entry $1 ($2 entries), in order.
SELECT seq, entry_at, kind, subject, content, prev_hash, hash FROM audit_trail WHERE seq > $1 ORDER BY seq LIMIT $2
