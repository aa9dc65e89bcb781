-- The severity of a row of a check that chooses per row between those its header allows (severities, a list
-- literal); any other value stops the statement (sql/lifecycle/stage_check.sql puts this where its
-- severity goes).
CASE
  WHEN r.severity IS NOT NULL AND list_contains({{severities}}::VARCHAR[], r.severity) THEN r.severity
  ELSE error('check contract: severity is ' || COALESCE('''' || r.severity || '''', 'NULL') || ', not what its header allows ('
    || array_to_string({{severities}}::VARCHAR[], ' or ') || ')')
END
