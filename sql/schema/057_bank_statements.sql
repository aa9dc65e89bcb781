-- Bank statements as evidence: per statement and account, the days it covers and the balances it states.
-- An account's coverage is the union of its statements' periods (sql/staging/bank_coverage.sql): a
-- disbursement is "not arrived" only when a covered period holds its whole window and no credit for it.
--
-- period_from / period_to: the period the statement declares (camt FrToDt, MT940 :60F:/:62F: dates, BAI2
-- as-of date), widened to its balances' and entries' dates; a CSV export's first and last entry dates.
-- balance_proof: 'balanced' (opening + credits − debits = closing), 'unbalanced' (proof_difference =
-- closing − (opening + credits − debits)), or 'no balances' (the statement states none). Entries imported
-- before this table have no row here: their statements' periods are derived from their entries' dates on
-- read (sql/staging/bank_statement_periods.sql).
CREATE TABLE bank_statements (
  statement_id      VARCHAR NOT NULL,               -- bank_transactions.statement_id of its entries
  account_key       VARCHAR NOT NULL,               -- a hash of the full account (src/bank/identity.ts)
  account           VARCHAR NOT NULL,               -- masked
  account_tail      VARCHAR,                        -- the last four digits of the account
  currency          VARCHAR NOT NULL,
  format            VARCHAR NOT NULL,               -- camt.053 | mt940 | bai2 | csv
  file_name         VARCHAR,
  period_from       DATE NOT NULL,
  period_to         DATE NOT NULL,
  opening_balance   BIGINT,                         -- subunits, signed (negative: overdrawn)
  opening_date      DATE,
  closing_balance   BIGINT,
  closing_date      DATE,
  credits           HUGEINT NOT NULL,               -- subunits, of its entries in its currency
  debits            HUGEINT NOT NULL,
  entry_count       INTEGER NOT NULL,
  balance_proof     VARCHAR NOT NULL,               -- balanced | unbalanced | no balances
  proof_difference  BIGINT,
  run_id            VARCHAR NOT NULL,
  imported_at       TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (statement_id, currency, period_from, period_to)
);
