-- Close $1 version $2, every column, as recorded.
SELECT * FROM closes WHERE month = $1 AND version = $2
