-- check: unlisted_currency
-- severity: warning
-- title: Currency outside the interface list
-- meaning: A currency code outside the interface list; amounts are shown with two decimals.
-- next step: Confirm the currency with the provider before booking.
-- scope: disbursement
--
-- A currency code outside the interface's listed ISO 4217 codes (Conventions; the currencies view):
-- its subunit factor is unknown, so amounts may be shown wrongly. A warning, one per disbursement and
-- per kind of record × code (not one per line: a whole disbursement in an unlisted code is one problem).
-- Only the codes outside the list are grouped (#28: grouping every line group first, then looking
-- each code up, built a table of every disbursement × kind × code on each run).
WITH codes AS (
  SELECT disbursement_id, 'disbursement' AS kind, currency, CAST(1 AS BIGINT) AS n
  FROM disbursements AS d
  WHERE d.currency IS NULL OR NOT EXISTS (SELECT 1 FROM currencies AS l WHERE l.code = d.currency)
  -- the lines (the kinds of payment_lines), counted from their groups (line_groups): no line is read again
  UNION ALL
  SELECT disbursement_id, kind, currency, CAST(SUM(n) AS BIGINT)
  FROM line_groups AS g
  WHERE g.currency IS NULL OR NOT EXISTS (SELECT 1 FROM currencies AS l WHERE l.code = g.currency)
  GROUP BY disbursement_id, kind, currency
)
SELECT
  c.disbursement_id,
  d.recipient_id,
  c.kind || ' currency ' || COALESCE(c.currency, '(none)') AS subject,
  c.currency,
  CAST(NULL AS BIGINT) AS expected,
  CAST(NULL AS BIGINT) AS actual,
  CAST(NULL AS BIGINT) AS difference,
  CASE WHEN c.kind = 'disbursement' THEN 'the disbursement'
       ELSE CAST(c.n AS VARCHAR) || ' ' || c.kind || '(s)' END
    || ' in currency ' || COALESCE('''' || c.currency || '''', '(none)')
    || ', which is not among the ISO 4217 codes the interface lists' AS detail
FROM codes AS c
JOIN disbursements AS d ON d.disbursement_id = c.disbursement_id
