-- Under the schema's lock, an export still 'running' is one whose connection went (killed, cut off).
UPDATE exports SET status = 'interrupted', finished_at = now(),
  error = coalesce(error, 'the export stopped before it finished; every month it had not committed kept its previous rows')
WHERE status = 'running'
