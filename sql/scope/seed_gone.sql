-- Disbursements of open findings that are no longer stored: their findings are re-checked (and resolve).
INSERT INTO scope_seed
SELECT DISTINCT 'gone', f.disbursement_id, CAST(NULL AS VARCHAR)
FROM findings AS f
WHERE f.state IN ('open', 'acknowledged') AND f.disbursement_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM disbursements AS d WHERE d.disbursement_id = f.disbursement_id)
