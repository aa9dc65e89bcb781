-- The new head ($1 seq, $2 hash): the one row, replaced.
INSERT OR REPLACE INTO audit_trail_head (id, seq, hash) VALUES (1, $1, $2)
