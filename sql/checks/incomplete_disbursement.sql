-- check: incomplete_disbursement
-- severity: error
-- title: Not every line could be read
-- meaning: Not every line of the disbursement could be read; it is never reported as reconciled.
-- next step: Nothing to book yet: the next run reads it again. If it stays, forward the detail to
--   the provider.
-- scope: disbursement
--
-- Some lines of the disbursement could not be read (sync_status 'incomplete'): it can never be reported
-- as reconciled, and the line-based checks skip it. The sync's note says what was missing.
SELECT
  d.disbursement_id,
  d.recipient_id,
  'sync' AS subject,
  d.currency,
  CAST(NULL AS BIGINT) AS expected,
  d.amount AS actual,
  CAST(NULL AS BIGINT) AS difference,
  'disbursement could not be read completely, so it is not reconciled: '
    || COALESCE(d.sync_note, 'no note from the sync') AS detail
FROM disbursements AS d
WHERE d.sync_status = 'incomplete'
