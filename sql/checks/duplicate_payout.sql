-- The same payment paid out (payouts.payment_id) more than once, in one disbursement or across
-- disbursements. The first occurrence (by delivered_at, disbursement_id, line_no) is legitimate; every
-- later one is flagged with its amount as the overpayment (expected 0). The detail names the first and
-- the previous occurrence.
-- Only keys seen more than once are ranked: one hash aggregate finds them, so the window (a sort)
-- runs over the few repeated rows instead of every payment_id. The result is the same: a key seen once
-- only ever has occurrence 1.
WITH repeated AS (
  SELECT payment_id FROM payouts WHERE payment_id IS NOT NULL GROUP BY payment_id HAVING COUNT(*) > 1
),
occurrences AS (
  SELECT
    x.disbursement_id,
    d.recipient_id,
    d.delivered_at,
    x.line_no,
    x.payment_id AS dup_id,
    x.currency,
    x.amount,
    ROW_NUMBER() OVER w AS occurrence,
    COUNT(*) OVER (PARTITION BY x.payment_id) AS occurrences,
    FIRST_VALUE(x.disbursement_id) OVER w AS first_disbursement_id,
    FIRST_VALUE(x.line_no) OVER w AS first_line_no,
    FIRST_VALUE(d.delivered_at) OVER w AS first_delivered_at,
    LAG(x.disbursement_id) OVER w AS previous_disbursement_id,
    LAG(x.line_no) OVER w AS previous_line_no
  FROM payouts AS x
  JOIN disbursements AS d ON d.disbursement_id = x.disbursement_id
  WHERE x.payment_id IS NOT NULL
    AND x.payment_id IN (SELECT payment_id FROM repeated)
  WINDOW w AS (PARTITION BY x.payment_id ORDER BY d.delivered_at, x.disbursement_id, x.line_no)
)
SELECT
  'duplicate_payout' AS check_id,
  'error' AS severity,
  o.disbursement_id,
  o.recipient_id,
  o.dup_id AS subject,
  o.currency,
  CAST(0 AS BIGINT) AS expected,
  o.amount AS actual,
  o.amount AS difference,
  'payout payment_id ' || o.dup_id || ' (line ' || CAST(o.line_no AS VARCHAR) || ', '
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
WHERE o.occurrence > 1
