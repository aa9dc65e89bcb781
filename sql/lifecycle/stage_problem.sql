-- The first problem of a staged check's rows ($1 the check's file id, $2 the severities its header allows),
-- if any: the runner turns it into a CheckFileError naming the file.
SELECT
  CASE
    WHEN check_id IS DISTINCT FROM file_id THEN 'check_id is ' || COALESCE('''' || check_id || '''', 'NULL')
      || ', not the file name ''' || file_id || ''''
    WHEN severity IS NULL OR NOT list_contains($2::VARCHAR[], severity) THEN 'severity is '
      || COALESCE('''' || severity || '''', 'NULL') || ', not what its header allows (' || array_to_string($2::VARCHAR[], ' or ') || ')'
    WHEN detail IS NULL OR detail = '' THEN 'detail is empty for subject ' || COALESCE(subject, 'NULL')
  END AS problem
FROM check_stage
WHERE file_id = $1
  AND (check_id IS DISTINCT FROM file_id OR severity IS NULL OR NOT list_contains($2::VARCHAR[], severity)
       OR detail IS NULL OR detail = '')
LIMIT 1
