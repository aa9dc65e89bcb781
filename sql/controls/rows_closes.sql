-- Every close as the trail records it, oldest first, with the trail entry it printed.
SELECT * FROM closes ORDER BY closed_at, month, version
