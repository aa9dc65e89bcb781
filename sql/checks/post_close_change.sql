-- check: post_close_change
-- severity: error
-- title: Closed month changed
-- meaning: A disbursement of a month already closed was changed by the provider afterwards.
-- next step: Decide whether to reissue the close (recon close --reissue) or book the change in the
--   current month.
-- scope: disbursement
--
-- A disbursement of a closed month that changed after the close (restated: its content differs from
-- what the latest close version contained) or arrived late (delivered in that month, not in the close).
-- The close can be re-issued as a new version: recon close --month YYYY-MM --reissue. Months are the books'
-- (month_of: --books-tz of the close), as the close counted them.
WITH latest AS (
  SELECT month, MAX(version) AS version FROM closes GROUP BY month
),
closed AS (
  SELECT c.month, c.version, c.disbursement_id, c.content_hash, c.amount, c.currency
  FROM close_disbursements AS c
  JOIN latest AS l ON l.month = c.month AND l.version = c.version
),
current_month AS (
  SELECT d.disbursement_id, d.recipient_id, d.currency, d.amount, d.content_hash,
    month_of(d.delivered_at) AS month
  FROM disbursements AS d
)
SELECT
  d.disbursement_id,
  d.recipient_id,
  'close ' || c.month || ' v' || CAST(c.version AS VARCHAR) AS subject,
  d.currency,
  c.amount AS expected,
  d.amount AS actual,
  d.amount - c.amount AS difference,
  'disbursement changed after month ' || c.month || ' was closed (version ' || CAST(c.version AS VARCHAR)
    || '): amount ' || format_amount(c.amount, d.currency) || ' → ' || format_amount(d.amount, d.currency) || ' ' || d.currency
    || '; re-issue the close with recon close --month ' || c.month || ' --reissue' AS detail
FROM closed AS c
JOIN current_month AS d ON d.disbursement_id = c.disbursement_id
WHERE d.content_hash <> c.content_hash
UNION ALL
SELECT
  d.disbursement_id, d.recipient_id,
  'close ' || l.month || ' v' || CAST(l.version AS VARCHAR),
  d.currency, CAST(NULL AS BIGINT), d.amount, d.amount,
  'disbursement delivered in closed month ' || l.month || ' arrived after the close (version ' || CAST(l.version AS VARCHAR)
    || '): ' || format_amount(d.amount, d.currency) || ' ' || d.currency || ' not in the closed figures; re-issue the close with recon close --month '
    || l.month || ' --reissue'
FROM current_month AS d
JOIN latest AS l ON l.month = d.month
WHERE NOT EXISTS (
  SELECT 1 FROM closed AS c WHERE c.month = l.month AND c.disbursement_id = d.disbursement_id
)
