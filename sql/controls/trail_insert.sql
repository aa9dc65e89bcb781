-- The staged entries into the chain, in order.
INSERT INTO audit_trail (seq, entry_at, kind, subject, content, prev_hash, hash)
SELECT seq, CAST(entry_at AS TIMESTAMPTZ), kind, subject, content, prev_hash, hash
FROM _trail_stage
ORDER BY seq
