-- check: bank_account_changed
-- severity: warning
-- title: Paid to another account than before
-- meaning: The disbursement went to another bank account than the recipient used before.
-- next step: Confirm the account change with the recipient before accepting the settlement.
-- scope: all
--
-- A recipient's (masked) bank account differs from the one of its previous disbursement, by
-- delivered_at. Only the first disbursement paid to the new account is flagged: a warning, since a
-- change can be legitimate but is also how payouts get diverted. Disbursements without an account
-- number are ignored rather than counted as a change.
-- Scope all: a finding compares a disbursement with the one before it of its recipient, which a later
-- arrival or a restatement can change; the window reads the disbursements only, never a line.
WITH accounts AS (
  SELECT
    d.disbursement_id,
    d.recipient_id,
    d.delivered_at,
    d.bank_account_number,
    LAG(d.bank_account_number) OVER w AS previous_account,
    LAG(d.disbursement_id) OVER w AS previous_disbursement_id,
    LAG(d.delivered_at) OVER w AS previous_delivered_at
  FROM disbursements AS d
  WHERE d.bank_account_number IS NOT NULL
  WINDOW w AS (PARTITION BY d.recipient_id ORDER BY d.delivered_at, d.disbursement_id)
)
SELECT
  a.disbursement_id,
  a.recipient_id,
  'bank account' AS subject,
  CAST(NULL AS VARCHAR) AS currency,
  CAST(NULL AS BIGINT) AS expected,
  CAST(NULL AS BIGINT) AS actual,
  CAST(NULL AS BIGINT) AS difference,
  'bank account changed from ' || a.previous_account || ' (disbursement ' || a.previous_disbursement_id
    || COALESCE(' delivered ' || CAST(CAST(a.previous_delivered_at AT TIME ZONE 'UTC' AS DATE) AS VARCHAR), '')
    || ') to ' || a.bank_account_number AS detail
FROM accounts AS a
WHERE a.previous_account IS NOT NULL
  AND a.previous_account <> a.bank_account_number
