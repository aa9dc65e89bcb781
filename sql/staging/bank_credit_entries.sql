CREATE OR REPLACE VIEW bank_credit_entries AS
SELECT statement_id, entry_ref, account, account_tail, COALESCE(value_date, booking_date) AS value_on, amount, currency, counterparty,
  lower(COALESCE(remittance, '') || ' ' || COALESCE(end_to_end_id, '') || ' ' || COALESCE(batch_refs, '')) AS refs
FROM bank_transactions
WHERE direction = 'credit';
