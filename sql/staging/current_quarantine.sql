-- materialised: per check run (computed once when two or more checks read it, directly or through views built on it)
-- Quarantined records that describe what is in the store now.
-- Quarantine rows accumulate run after run; for a disbursement in the store only the rows of the most
-- recent run that quarantined anything for it count, and only while its sync_status says records were
-- quarantined ('invalid', or 'incomplete' which may also have some). A restated version that is clean
-- (sync_status 'complete') therefore leaves its old quarantine rows behind.
-- Rows of no disbursement in the store (page-level problems, a disbursement record that itself failed
-- validation) count from the latest sync run only: runs.command 'sync' or 'run', by started_at.
CREATE OR REPLACE VIEW current_quarantine AS
WITH per_run AS (
  SELECT q.disbursement_id, q.run_id, MAX(q.quarantined_at) AS last_at
  FROM quarantine AS q
  JOIN disbursements AS d ON d.disbursement_id = q.disbursement_id
  WHERE d.sync_status IN ('invalid', 'incomplete')
  GROUP BY q.disbursement_id, q.run_id
),
latest_per_disbursement AS (
  SELECT disbursement_id, run_id
  FROM (
    SELECT
      disbursement_id, run_id,
      ROW_NUMBER() OVER (PARTITION BY disbursement_id ORDER BY last_at DESC, run_id DESC) AS rn
    FROM per_run
  ) AS ranked
  WHERE rn = 1
),
latest_sync AS (
  SELECT run_id
  FROM (
    SELECT run_id, ROW_NUMBER() OVER (ORDER BY started_at DESC, run_id DESC) AS rn
    FROM runs
    WHERE command IN ('sync', 'run')
  ) AS ranked
  WHERE rn = 1
)
SELECT q.*, TRUE AS in_store
FROM quarantine AS q
JOIN latest_per_disbursement AS l ON l.disbursement_id = q.disbursement_id AND l.run_id = q.run_id
UNION ALL
SELECT q.*, FALSE AS in_store
FROM quarantine AS q
JOIN latest_sync AS s ON s.run_id = q.run_id
WHERE q.disbursement_id IS NULL
   OR NOT EXISTS (SELECT 1 FROM disbursements AS d WHERE d.disbursement_id = q.disbursement_id);
