-- Rows imported before migration 021 have no keys: an entry with their old identity that says the same
-- (amount, currency, direction, account, dates) is that row, and gives it its keys.
UPDATE bank_transactions AS t SET account_key = b.account_key, entry_key = b.entry_key
FROM _bank AS b
WHERE t.account_key IS NULL AND t.statement_id = b.legacy_statement_id AND t.entry_ref = b.legacy_entry_ref
  AND t.amount = b.amount AND t.currency = b.currency AND t.direction = b.direction
  AND t.account = b.account AND t.account_tail IS NOT DISTINCT FROM b.account_tail
  AND t.value_date IS NOT DISTINCT FROM CAST(b.value_date AS DATE) AND t.booking_date IS NOT DISTINCT FROM CAST(b.booking_date AS DATE)
