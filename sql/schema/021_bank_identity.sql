-- Bank statements as banks send them.
--
-- Identity: an entry is identified within its account (account_key, a hash of the full account) by
-- entry_key (day, direction, amount, currency, the bank's reference or what the entry says, occurrence
-- within its day); statement_id names the account too. Rows imported before this migration keep their
-- (statement_id, entry_ref) and have no keys yet: the next import of the same entry recognises the row by
-- its old identity, with the same date, amount and direction, and fills its keys (src/bank/import.ts), so a
-- re-import adds nothing while an entry the old identity lost (a reused MT940 :20:/:28C:, a camt Stmt/Id
-- shared by two accounts) is added at last.
ALTER TABLE bank_transactions ADD COLUMN account_key VARCHAR;
ALTER TABLE bank_transactions ADD COLUMN entry_key VARCHAR;
-- A batch booking (camt.053 NtryDtls with several TxDtls): its transactions' references and remittance,
-- ' | ' between them, and how many there are (NULL for a single entry).
ALTER TABLE bank_transactions ADD COLUMN batch_refs VARCHAR;
ALTER TABLE bank_transactions ADD COLUMN batch_count INTEGER;

-- A credit short of a disbursement by at most this is the bank's charge (bank_fee), not a finding: per
-- currency ('*' for every currency without a row of its own), both limits holding (recon run/check
-- --bank-fee-tolerance, default '*:25:1%').
CREATE TABLE bank_fee_tolerance (
  currency       VARCHAR NOT NULL PRIMARY KEY,
  max_fee_major  DECIMAL(18, 3) NOT NULL,        -- in major units of the currency
  max_percent    DECIMAL(9, 4) NOT NULL          -- of the disbursement's amount
);
INSERT INTO bank_fee_tolerance VALUES ('*', 25, 1);

-- Statement files a run's --bank-dir could not read (or skipped), each with its reason: the run goes on
-- and its workbook names them on the Bank sheet.
CREATE TABLE bank_refusals (
  run_id      VARCHAR NOT NULL,
  file_name   VARCHAR NOT NULL,
  reason      VARCHAR NOT NULL,
  refused_at  TIMESTAMPTZ NOT NULL
);
