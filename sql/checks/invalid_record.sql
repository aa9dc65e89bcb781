-- check: invalid_record
-- severity: error
-- title: Record broke the interface
-- meaning: A record from the provider broke the interface (wrong type, missing field); it is kept
--   raw in quarantine.
-- next step: Send the Payload column to the provider; the disbursement is not reconciled until the
--   record is valid.
-- scope: disbursement
--
-- Records that failed validation were kept in quarantine with the reason (never dropped). Reported:
-- the quarantine rows describing a disbursement as it is in the store now, and rows of no stored
-- disbursement from the latest sync run (see the current_quarantine view for which rows count).
SELECT
  q.disbursement_id,
  d.recipient_id,
  q.resource || COALESCE(' line ' || CAST(q.line_no AS VARCHAR), '') AS subject,
  d.currency,
  CAST(NULL AS BIGINT) AS expected,
  CAST(NULL AS BIGINT) AS actual,
  CAST(NULL AS BIGINT) AS difference,
  q.resource || COALESCE(' line ' || CAST(q.line_no AS VARCHAR), '')
    || COALESCE(' of disbursement ' || q.disbursement_id, '')
    || ' was quarantined: ' || q.reason
    -- the payload as received, cut at a field boundary (never mid-value) when long
    -- (file lines keep no payload: their line number and file name say where to look)
    || COALESCE(' — received: ' || CASE WHEN NULLIF(q.raw, '') IS NULL THEN NULL WHEN length(q.raw) <= 300 THEN q.raw
         ELSE COALESCE(NULLIF(regexp_extract(substr(q.raw, 1, 300), '^(.*),"', 1), ''), substr(q.raw, 1, 300)) || ', …' END, '') AS detail
FROM current_quarantine AS q
LEFT JOIN disbursements AS d ON d.disbursement_id = q.disbursement_id
