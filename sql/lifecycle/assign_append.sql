-- One assignment of finding $1 ($2 seq: the next of the finding's) to owner $3, due $4 (a date or NULL), by $5
-- at $6 with note $7, run as operating-system user $8 on host $9.
INSERT INTO finding_assignments (finding_key, seq, owner, due_date, assigned_by, assigned_at, note, os_user, host)
VALUES ($1, $2, $3, CAST($4 AS DATE), $5, CAST($6 AS TIMESTAMPTZ), $7, $8, $9)
