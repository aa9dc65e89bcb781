-- Every assignment of an owner, oldest first.
SELECT * FROM finding_assignments ORDER BY assigned_at, finding_key, seq
