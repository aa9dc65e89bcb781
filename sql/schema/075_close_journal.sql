-- The journal each close version booked, and the journal files written from it. A reissue reverses what the
-- previous version's files booked (recon close --reissue writes, per format and currency, a reversal of the
-- entry still standing, then the new entry), so what those files said must be known exactly when the next
-- version is written: their lines are kept here, never read back from old CSVs a person may have moved.
CREATE TABLE close_journal_lines (
  month        VARCHAR NOT NULL,               -- 'YYYY-MM' of the close
  version      INTEGER NOT NULL,
  currency     VARCHAR NOT NULL,
  line_no      INTEGER NOT NULL,               -- 1, 2, … within the version and currency, in the Journal's order
  role         VARCHAR NOT NULL,               -- what the line books (bank, clearing, fees, rounding, …)
  account      VARCHAR NOT NULL,               -- recon's name for the role's account
  code         VARCHAR NOT NULL,               -- the account of the user's books (--accounts); '' without a chart
  name         VARCHAR NOT NULL,
  description  VARCHAR NOT NULL,
  debit        HUGEINT NOT NULL,               -- subunits, a whole number of ISO 4217 minor units
  credit       HUGEINT NOT NULL,
  PRIMARY KEY (month, version, currency, line_no)
);

CREATE TABLE close_journal_files (
  month            VARCHAR NOT NULL,
  version          INTEGER NOT NULL,           -- the close version that wrote the file
  format           VARCHAR NOT NULL,           -- generic | quickbooks | xero | netsuite
  currency         VARCHAR NOT NULL,
  kind             VARCHAR NOT NULL,           -- entry: the version's journal; reversal: an earlier entry undone
  entry_version    INTEGER NOT NULL,           -- whose lines the file books: this version's, or the reversed one's
  journal_no       VARCHAR NOT NULL,
  file             VARCHAR NOT NULL,
  provisional      BOOLEAN NOT NULL,           -- written for a provisional close (--provisional-journal), marked so
  PRIMARY KEY (month, version, format, currency, kind)
);
