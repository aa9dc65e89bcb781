-- The seq finding $1's next assignment takes.
SELECT COALESCE(max(seq), 0) + 1 FROM finding_assignments WHERE finding_key = $1
