-- The first entry of the trail recorded on or after $1 (the first instant of a month), up to entry $2 (a
-- close's own): where the month's part of the chain begins.
SELECT min(seq) FROM audit_trail WHERE entry_at >= CAST($1 AS TIMESTAMPTZ) AND seq <= $2
