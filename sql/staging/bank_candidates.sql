-- The third leg: which credits could settle which disbursements. The matching itself is in
-- bank_matches.sql, what became of every credit and disbursement in bank_credits.sql, bank_status.sql and
-- bank_unmatched_credits.sql.
--
-- A credit can settle a disbursement when it is in the same currency, its value date (else its booking
-- date) is on or after the delivery day (a day earlier allowed: delivered_at is UTC, the bank's dates are
-- local) and at most bank_settings.window_business_days business days (Monday to Friday) after it, and the
-- digits the service leaves visible in the masked bank_account_number agree with the statement account's
-- last digits. A credit names a disbursement when its remittance text, end-to-end id or (a batch booking)
-- its transactions' references hold the disbursement id as a word.
--
-- One-to-one candidates: same currency and amount, in the window; account_agrees says whether the
-- account's visible digits agree (a credit naming a disbursement on another account is a finding).
CREATE OR REPLACE VIEW bank_candidates AS
SELECT
  d.disbursement_id, c.statement_id, c.entry_ref,
  contains(c.refs, lower(d.disbursement_id)) AS by_reference,
  business_days_after(d.delivered_on, c.value_on) AS days_after,
  tail_agrees(d.tail, c.account_tail) AS account_agrees
FROM bank_disbursements AS d
JOIN bank_credit_entries AS c ON c.currency = d.currency AND c.amount = d.amount
WHERE in_bank_window(d.delivered_on, c.value_on);
