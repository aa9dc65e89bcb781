-- The latest close of month $1, every column.
SELECT * FROM closes WHERE month = $1 ORDER BY version DESC LIMIT 1
