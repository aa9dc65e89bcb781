-- The findings of check run $1 were shown by a workbook written whole: from now on they are open, not new.
UPDATE findings SET shown_run_id = $1
WHERE shown_run_id IS NULL AND finding_key IN (SELECT finding_key FROM exceptions WHERE run_id = $1)
