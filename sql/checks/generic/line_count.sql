-- A generic check (a repeated shape written once): the number of lines the disbursement
-- announces (number_of_payments, _refunds, _adjustments) must equal the lines received of the kind the
-- check names, stored and quarantined (the line_counts view). A check uses it with `-- uses: line_count(kind = …)`.
SELECT
  disbursement_id,
  recipient_id,
  field AS subject,
  CAST(NULL AS VARCHAR) AS currency,
  received AS expected,
  announced AS actual,
  announced - received AS difference,
  detail
FROM line_counts
WHERE kind = '{{kind}}' AND announced <> received
