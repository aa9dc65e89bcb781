-- A generic check (a repeated shape written once): the same payment, refund or adjustment
-- reference settled more than once, in one disbursement or across disbursements, of the kind the check
-- names. The first occurrence (by delivered_at, disbursement_id, line_no) is legitimate; every later one
-- is flagged with its amount as the overpayment (expected 0). The ranking and the detail (first and
-- previous occurrence) live in the settled_repeats view. A check uses it with `-- uses: settled_repeat(kind = …)`.
SELECT
  disbursement_id,
  recipient_id,
  dup_id AS subject,
  currency,
  CAST(0 AS BIGINT) AS expected,
  amount AS actual,
  amount AS difference,
  detail
FROM settled_repeats
WHERE kind = '{{kind}}'
