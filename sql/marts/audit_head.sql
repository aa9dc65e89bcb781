-- The audit trail's head: its last entry, the number of entries and the hash that seals them all. The
-- published snapshot carries it, so an auditor holding a printed close (its Summary prints the close's
-- entry and hash) can compare later: `recon verify --head HASH` finds that entry in the chain.
--   SELECT * FROM audit_head
CREATE OR REPLACE VIEW audit_head AS
SELECT seq, entry_at, kind, subject, hash, seq AS entries
FROM audit_trail
ORDER BY seq DESC
LIMIT 1;
