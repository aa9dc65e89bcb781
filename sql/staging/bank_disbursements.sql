-- Disbursements and credits as the matching reads them.
CREATE OR REPLACE VIEW bank_disbursements AS
SELECT disbursement_id, recipient_id, currency, amount, CAST(delivered_at AS DATE) AS delivered_on,
  account_digits_tail(bank_account_number) AS tail
FROM disbursements;
