-- Each staged entry whose identity (account_key, entry_key) is not in the store yet; $1 the run id.
INSERT INTO bank_transactions (statement_id, entry_ref, format, account, account_tail, booking_date, value_date, amount, currency, direction,
  end_to_end_id, remittance, counterparty, raw, file_name, account_key, entry_key, batch_refs, batch_count, run_id, imported_at)
SELECT DISTINCT ON (account_key, entry_key) statement_id, entry_ref, format, account, account_tail, CAST(booking_date AS DATE),
       CAST(value_date AS DATE), amount, currency, direction, end_to_end_id, remittance, counterparty, raw, file_name, account_key,
       entry_key, batch_refs, batch_count, $1, now()
FROM _bank AS b
WHERE NOT EXISTS (SELECT 1 FROM bank_transactions AS t WHERE t.account_key = b.account_key AND t.entry_key = b.entry_key)
