-- One assignment of finding $1 ($2 its seq), as stored.
SELECT * FROM finding_assignments WHERE finding_key = $1 AND seq = $2
