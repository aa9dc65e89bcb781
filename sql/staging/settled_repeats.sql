-- Every later settlement of a key already settled: the same payout payment_id, refund_id or adjustment
-- reference more than once, in one disbursement or across disbursements. The first occurrence (by
-- delivered_at, disbursement_id, line_no) is legitimate; each later one is a row here, its amount the
-- overpayment, its detail naming the first and the previous occurrence. Read by duplicate_payout,
-- duplicate_refund and duplicate_adjustment (one kind each).
-- Only keys seen more than once are ranked: one hash aggregate per table finds them, so the window (a
-- sort) runs over the few repeated rows instead of every key.
-- Archived lines (archived_line_keys: their keys only, src/store/archive.ts) still count as earlier
-- settlements; a repeat among them is not reported again (its finding is kept as it was).
CREATE OR REPLACE VIEW settled_repeats AS
WITH repeated_payouts AS (
  SELECT dup_id FROM (
    SELECT payment_id AS dup_id FROM payouts WHERE payment_id IS NOT NULL
    UNION ALL SELECT dup_id FROM archived_line_keys WHERE kind = 'payout'
  ) GROUP BY dup_id HAVING COUNT(*) > 1
),
repeated_refunds AS (
  SELECT dup_id FROM (
    SELECT refund_id AS dup_id FROM refunds WHERE refund_id IS NOT NULL
    UNION ALL SELECT dup_id FROM archived_line_keys WHERE kind = 'refund'
  ) GROUP BY dup_id HAVING COUNT(*) > 1
),
repeated_adjustments AS (
  SELECT dup_id FROM (
    SELECT reference AS dup_id FROM adjustments WHERE reference IS NOT NULL
    UNION ALL SELECT dup_id FROM archived_line_keys WHERE kind = 'adjustment'
  ) GROUP BY dup_id HAVING COUNT(*) > 1
),
lines AS (
  SELECT 'payout' AS kind, 'payout payment_id' AS label, disbursement_id, line_no, payment_id AS dup_id, currency,
    amount, FALSE AS archived
  FROM payouts
  WHERE payment_id IN (SELECT dup_id FROM repeated_payouts)
  UNION ALL
  SELECT 'refund', 'refund refund_id', disbursement_id, line_no, refund_id, currency, amount, FALSE
  FROM refunds
  WHERE refund_id IN (SELECT dup_id FROM repeated_refunds)
  UNION ALL
  SELECT 'adjustment', 'adjustment reference', disbursement_id, line_no, reference, currency, amount, FALSE
  FROM adjustments
  WHERE reference IN (SELECT dup_id FROM repeated_adjustments)
  UNION ALL
  SELECT 'payout', 'payout payment_id', disbursement_id, line_no, dup_id, NULL, NULL, TRUE
  FROM archived_line_keys
  WHERE kind = 'payout' AND dup_id IN (SELECT dup_id FROM repeated_payouts)
  UNION ALL
  SELECT 'refund', 'refund refund_id', disbursement_id, line_no, dup_id, NULL, NULL, TRUE
  FROM archived_line_keys
  WHERE kind = 'refund' AND dup_id IN (SELECT dup_id FROM repeated_refunds)
  UNION ALL
  SELECT 'adjustment', 'adjustment reference', disbursement_id, line_no, dup_id, NULL, NULL, TRUE
  FROM archived_line_keys
  WHERE kind = 'adjustment' AND dup_id IN (SELECT dup_id FROM repeated_adjustments)
),
occurrences AS (
  SELECT
    x.kind,
    x.label,
    x.disbursement_id,
    d.recipient_id,
    x.line_no,
    x.dup_id,
    x.currency,
    x.amount,
    x.archived,
    ROW_NUMBER() OVER w AS occurrence,
    COUNT(*) OVER (PARTITION BY x.kind, x.dup_id) AS occurrences,
    FIRST_VALUE(x.disbursement_id) OVER w AS first_disbursement_id,
    FIRST_VALUE(x.line_no) OVER w AS first_line_no,
    FIRST_VALUE(d.delivered_at) OVER w AS first_delivered_at,
    LAG(x.disbursement_id) OVER w AS previous_disbursement_id,
    LAG(x.line_no) OVER w AS previous_line_no
  FROM lines AS x
  JOIN disbursements AS d ON d.disbursement_id = x.disbursement_id
  WINDOW w AS (PARTITION BY x.kind, x.dup_id ORDER BY d.delivered_at, x.disbursement_id, x.line_no)
)
SELECT
  o.kind,
  o.disbursement_id,
  o.recipient_id,
  o.dup_id,
  o.currency,
  o.amount,
  o.label || ' ' || o.dup_id || ' (line ' || CAST(o.line_no AS VARCHAR) || ', '
    || format_amount(o.amount, o.currency) || ' ' || COALESCE(o.currency, '') || ') was already settled in '
    || CASE WHEN o.first_disbursement_id = o.disbursement_id
         THEN 'this disbursement'
         ELSE 'disbursement ' || o.first_disbursement_id
              || COALESCE(' delivered ' || CAST(CAST(o.first_delivered_at AT TIME ZONE 'UTC' AS DATE) AS VARCHAR), '')
       END
    || ' (line ' || CAST(o.first_line_no AS VARCHAR) || ')'
    || CASE WHEN o.occurrence > 2
         THEN '; previous occurrence in '
              || CASE WHEN o.previous_disbursement_id = o.disbursement_id THEN 'this disbursement'
                      ELSE 'disbursement ' || o.previous_disbursement_id END
              || ' (line ' || CAST(o.previous_line_no AS VARCHAR) || ')'
         ELSE '' END
    || '; occurrence ' || CAST(o.occurrence AS VARCHAR) || ' of ' || CAST(o.occurrences AS VARCHAR) AS detail
FROM occurrences AS o
WHERE o.occurrence > 1 AND NOT o.archived
