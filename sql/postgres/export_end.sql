UPDATE exports SET finished_at = now(), status = $2, months_replaced = $3, months_removed = $4, rows_written = $5, error = $6
WHERE run_id = $1
