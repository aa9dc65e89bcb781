-- Per currency, what the reconciliation of every disbursement adds up to: reported and computed totals,
-- their difference and the computed total's parts (the exception workbook's Summary sheet). One row per
-- currency: money is never summed across currencies.
CREATE OR REPLACE VIEW currency_totals AS
SELECT
  currency,
  count(*) AS disbursements,
  CAST(sum(reported) AS HUGEINT) AS reported,
  CAST(coalesce(sum(computed), 0) AS HUGEINT) AS computed,
  CAST(coalesce(sum(difference), 0) AS HUGEINT) AS difference,
  CAST(coalesce(sum(payouts_sum), 0) AS HUGEINT) AS payouts,
  CAST(coalesce(sum(refunds_sum), 0) AS HUGEINT) AS refunds,
  CAST(coalesce(sum(credits_sum), 0) AS HUGEINT) AS credits,
  CAST(coalesce(sum(debits_sum), 0) AS HUGEINT) AS debits
FROM reconciliation
GROUP BY currency;
