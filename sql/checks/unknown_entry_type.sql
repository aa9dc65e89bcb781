-- check: unknown_entry_type
-- severity: error
-- title: Adjustment neither credit nor debit
-- meaning: An adjustment is neither credit nor debit, so it cannot be placed in the identity.
-- next step: Ask the provider how to treat the entry type; book it by hand until recon knows it.
-- scope: disbursement
--
-- An adjustment's entry_type must be credit or debit (interface, Adjustment item); anything else has
-- no sign in the total identity, so total_identity leaves it out and this check reports it.
SELECT
  a.disbursement_id,
  d.recipient_id,
  COALESCE(a.reference, 'adjustment line ' || CAST(a.line_no AS VARCHAR)) AS subject,
  a.currency,
  CAST(NULL AS BIGINT) AS expected,
  a.amount AS actual,
  CAST(NULL AS BIGINT) AS difference,
  'adjustment ' || COALESCE(a.reference, '(no reference)') || ' (line ' || CAST(a.line_no AS VARCHAR)
    || ', ' || format_amount(a.amount, a.currency) || ' ' || COALESCE(a.currency, '') || ') has entry type '
    || COALESCE('''' || a.entry_type || '''', 'none')
    || ', neither credit nor debit; it is left out of the total identity' AS detail
FROM adjustments AS a
LEFT JOIN disbursements AS d ON d.disbursement_id = a.disbursement_id
WHERE a.entry_type IS NULL OR a.entry_type NOT IN ('credit', 'debit')
