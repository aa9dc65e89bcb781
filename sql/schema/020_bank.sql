-- Bank statements: every entry of every imported statement, identified by its statement and its
-- entry reference (the bank's own, or a hash of its content), so importing a statement twice adds
-- nothing. The account is stored masked (all but its last four characters), as the payments service
-- masks bank_account_number; account_tail holds its last four digits for matching.
CREATE TABLE bank_transactions (
  statement_id     VARCHAR NOT NULL,
  entry_ref        VARCHAR NOT NULL,
  format           VARCHAR NOT NULL,                -- camt.053 | mt940 | csv
  account          VARCHAR NOT NULL,                -- masked
  account_tail     VARCHAR,                         -- the last four digits of the account
  booking_date     DATE,
  value_date       DATE,
  amount           BIGINT NOT NULL,                 -- subunits, positive
  currency         VARCHAR NOT NULL,
  direction        VARCHAR NOT NULL,                -- credit | debit
  end_to_end_id    VARCHAR,
  remittance       VARCHAR,
  counterparty     VARCHAR,
  raw              VARCHAR,                         -- the entry as in the file (cut at 2,000 characters)
  file_name        VARCHAR,                         -- the statement file's base name
  run_id           VARCHAR NOT NULL,
  imported_at      TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (statement_id, entry_ref)
);

-- How many business days after delivered_at a credit may arrive and still settle the disbursement
-- (recon run/check --bank-window-days, default 3).
CREATE TABLE bank_settings (
  window_business_days INTEGER NOT NULL
);
INSERT INTO bank_settings VALUES (3);
