-- How many rows each check file staged (stage_checks.sql ran them together).
SELECT file_id, count(*) FROM check_stage GROUP BY file_id
