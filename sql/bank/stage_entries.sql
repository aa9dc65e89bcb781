-- The entries of the statements being imported, before they are compared with the store
-- (src/store/bank.ts appends them in this column order).
CREATE OR REPLACE TEMP TABLE _bank (
  statement_id VARCHAR, entry_ref VARCHAR, format VARCHAR, account VARCHAR, account_tail VARCHAR,
  booking_date VARCHAR, value_date VARCHAR, amount BIGINT, currency VARCHAR, direction VARCHAR, end_to_end_id VARCHAR, remittance VARCHAR,
  counterparty VARCHAR, raw VARCHAR, file_name VARCHAR, account_key VARCHAR, entry_key VARCHAR, batch_refs VARCHAR, batch_count INTEGER,
  legacy_statement_id VARCHAR, legacy_entry_ref VARCHAR
)
