-- check: missing_files
-- severity: warning
-- title: Settlement file missing
-- meaning: No settlement file came with a disbursement of a recipient that always gets one.
-- next step: Ask the provider to publish the file; the finding closes when a later run downloads it.
-- scope: all
--
-- A delivered disbursement without any file, when its recipient does get files for other disbursements.
-- Files depend on the recipient's portal configuration (interface, Disbursement file): a recipient with
-- no files at all is configured that way and is not an exception. A warning: the API lines are still
-- reconciled, only the independent evidence is missing. Incomplete disbursements are skipped (the file
-- list may be what could not be read; incomplete_disbursement reports them).
-- Whether each disbursement has a file is one semi-join (EXISTS), and the recipients' counts one
-- aggregate over it (#28: a DISTINCT of the files, a grouped join and a NOT EXISTS were three).
-- Scope all: the detail counts the recipient's disbursements with files, which each new one of the
-- recipient changes; the pass reads disbursements and files, never a line.
WITH per_disbursement AS (
  SELECT d.disbursement_id, d.recipient_id, d.status, d.sync_status,
    EXISTS (SELECT 1 FROM disbursement_files AS f WHERE f.disbursement_id = d.disbursement_id) AS has_files
  FROM disbursements AS d
),
recipients_with_files AS (
  SELECT recipient_id, COUNT(*) FILTER (WHERE has_files) AS disbursements_with_files
  FROM per_disbursement
  GROUP BY recipient_id
)
SELECT
  d.disbursement_id,
  d.recipient_id,
  'files' AS subject,
  CAST(NULL AS VARCHAR) AS currency,
  CAST(NULL AS BIGINT) AS expected,
  CAST(NULL AS BIGINT) AS actual,
  CAST(NULL AS BIGINT) AS difference,
  'no settlement file was offered for this disbursement, although recipient ' || d.recipient_id
    || ' has files for ' || CAST(r.disbursements_with_files AS VARCHAR) || ' other disbursement(s)' AS detail
FROM per_disbursement AS d
JOIN recipients_with_files AS r ON r.recipient_id = d.recipient_id
WHERE r.disbursements_with_files > 0
  AND COALESCE(d.status, 'delivered') = 'delivered'
  AND d.sync_status <> 'incomplete'
  AND NOT d.has_files
