-- a finding is "new" until a workbook has shown it. A run that failed after its checks (a full disk
-- while writing the workbook) showed nobody its findings; the next run's workbook must still call them
-- new. shown_run_id is the run whose exception workbook first showed the finding in its current form
-- (NULL: not shown yet; set back to NULL when it re-opens). Findings of stores made before this column
-- existed were shown by the run that found them.
ALTER TABLE findings ADD COLUMN shown_run_id VARCHAR;
UPDATE findings SET shown_run_id = first_run_id;
