INSERT INTO export_months (month, fingerprint, rows, exported_at, run_id) VALUES ($1, $2, $3, now(), $4)
ON CONFLICT (month) DO UPDATE SET fingerprint = excluded.fingerprint, rows = excluded.rows,
  exported_at = excluded.exported_at, run_id = excluded.run_id
