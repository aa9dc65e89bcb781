-- check: restated
-- severity: error
-- title: Changed after delivery
-- meaning: The provider changed a disbursement after it was delivered; the earlier version is kept
--   in history.
-- next step: Compare both versions (disbursement_history); rebook if the month is still open.
-- scope: disbursement
--
-- The service changed a disbursement after recon had stored it (restatement): earlier versions are kept
-- in disbursement_history. One finding per superseded version that still differs from the current one
-- (a restatement back to the original leaves only the intermediate version reported). expected is the
-- old amount, actual the current one; the detail lists what changed. An error: reports and closes
-- built on the old version are now wrong.
WITH versions AS (
  SELECT
    h.disbursement_id,
    h.version,
    h.superseded_at,
    h.amount AS old_amount,
    h.number_of_payments AS old_payments,
    h.number_of_refunds AS old_refunds,
    h.number_of_adjustments AS old_adjustments,
    h.content_hash AS old_hash,
    h.payouts_count AS old_payouts_count,
    h.payouts_sum AS old_payouts_sum,
    d.recipient_id,
    d.currency,
    d.version AS current_version,
    d.amount AS new_amount,
    d.number_of_payments AS new_payments,
    d.number_of_refunds AS new_refunds,
    d.number_of_adjustments AS new_adjustments,
    d.content_hash AS new_hash,
    t.payouts_count AS new_payouts_count,
    t.payouts_sum AS new_payouts_sum
  FROM disbursement_history AS h
  JOIN disbursements AS d ON d.disbursement_id = h.disbursement_id
  JOIN disbursement_totals AS t ON t.disbursement_id = h.disbursement_id
),
changes AS (
  SELECT
    v.*,
    CASE WHEN v.old_amount IS DISTINCT FROM v.new_amount
      THEN '; amount ' || format_amount(v.old_amount, v.currency) || ' → ' || format_amount(v.new_amount, v.currency)
           || ' ' || COALESCE(v.currency, '') ELSE '' END
    || CASE WHEN v.old_payments IS DISTINCT FROM v.new_payments
      THEN '; number_of_payments ' || COALESCE(CAST(v.old_payments AS VARCHAR), 'none') || ' → '
           || COALESCE(CAST(v.new_payments AS VARCHAR), 'none') ELSE '' END
    || CASE WHEN v.old_refunds IS DISTINCT FROM v.new_refunds
      THEN '; number_of_refunds ' || COALESCE(CAST(v.old_refunds AS VARCHAR), 'none') || ' → '
           || COALESCE(CAST(v.new_refunds AS VARCHAR), 'none') ELSE '' END
    || CASE WHEN v.old_adjustments IS DISTINCT FROM v.new_adjustments
      THEN '; number_of_adjustments ' || COALESCE(CAST(v.old_adjustments AS VARCHAR), 'none') || ' → '
           || COALESCE(CAST(v.new_adjustments AS VARCHAR), 'none') ELSE '' END
    || CASE WHEN v.old_payouts_sum IS NOT NULL AND (v.old_payouts_sum <> v.new_payouts_sum
                                                   OR v.old_payouts_count <> v.new_payouts_count)
      THEN '; payouts ' || CAST(v.old_payouts_count AS VARCHAR) || ' totalling '
           || format_amount(v.old_payouts_sum, v.currency) || ' → ' || CAST(v.new_payouts_count AS VARCHAR)
           || ' totalling ' || format_amount(v.new_payouts_sum, v.currency) ELSE '' END
    || CASE WHEN v.old_hash IS DISTINCT FROM v.new_hash
      THEN '; content (record or lines) changed' ELSE '' END AS what_changed
  FROM versions AS v
)
SELECT
  c.disbursement_id,
  c.recipient_id,
  'version ' || CAST(c.version AS VARCHAR) AS subject,
  c.currency,
  c.old_amount AS expected,
  c.new_amount AS actual,
  CAST(c.new_amount - c.old_amount AS BIGINT) AS difference,
  'disbursement restated: version ' || CAST(c.version AS VARCHAR) || ' (superseded '
    || CAST(CAST(c.superseded_at AT TIME ZONE 'UTC' AS DATE) AS VARCHAR) || ') differs from current version '
    || CAST(c.current_version AS VARCHAR) || c.what_changed AS detail
FROM changes AS c
WHERE c.what_changed <> ''
