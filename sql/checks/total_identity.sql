-- check: total_identity
-- severity: error
-- title: Total ≠ its lines
-- meaning: The disbursement total is not payouts + credit adjustments − refunds − debit adjustments.
-- next step: Ask the provider which line is missing or wrong; post the difference to suspense until
--   they answer, then acknowledge with their ticket number.
-- scope: disbursement
--
-- The disbursement's amount must equal what its lines add up to (interface, Disbursement):
--   amount = Σ payouts + Σ credit adjustments − Σ refunds − Σ debit adjustments.
-- entry_type decides the sign; other entry types are left out here and reported by unknown_entry_type.
-- Incomplete disbursements are skipped: their lines are partial (incomplete_disbursement reports them).
SELECT
  d.disbursement_id,
  d.recipient_id,
  'amount' AS subject,
  d.currency,
  CAST(t.computed AS BIGINT) AS expected,
  d.amount AS actual,
  CAST(d.amount - t.computed AS BIGINT) AS difference,
  'disbursement amount ' || format_amount(d.amount, d.currency) || ' ' || COALESCE(d.currency, '')
    || ' ≠ payouts ' || format_amount(t.payouts_sum, d.currency)
    || ' + credits ' || format_amount(t.credits_sum, d.currency)
    || ' − refunds ' || format_amount(t.refunds_sum, d.currency)
    || ' − debits ' || format_amount(t.debits_sum, d.currency)
    || ' = ' || format_amount(t.computed, d.currency)
    || '; difference ' || format_amount(d.amount - t.computed, d.currency)
    || ' (' || CAST(t.payouts_count AS VARCHAR) || ' payouts, '
    || CAST(t.refunds_count AS VARCHAR) || ' refunds, '
    || CAST(t.credits_count + t.debits_count AS VARCHAR) || ' credit/debit adjustments'
    || CASE WHEN t.other_adjustments_count > 0
         THEN '; ' || CAST(t.other_adjustments_count AS VARCHAR) || ' adjustment(s) of another entry type left out'
         ELSE '' END
    || ')' AS detail
FROM disbursements AS d
JOIN disbursement_totals AS t ON t.disbursement_id = d.disbursement_id
WHERE d.sync_status <> 'incomplete'
  AND (d.amount IS NULL OR d.amount <> t.computed)
