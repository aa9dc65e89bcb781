-- The archive: the lines of closed months older than --archive-after-months leave the store for immutable
-- Parquet files beside it (<db folder>/archive/, src/store/archive.ts), so the store holds a bounded number of
-- months. The snapshot's views read the archived files again, so `recon sql` answers as before.
--
-- archived_months: one row per month archived (its disbursements keep their rows in `disbursements`: the
-- sync still knows them, the bank matching still sees them).
CREATE TABLE archived_months (
  month          VARCHAR PRIMARY KEY,           -- 'YYYY-MM' of delivered_at in the books' time zone when archived
  disbursements  BIGINT NOT NULL,
  archived_at    TIMESTAMPTZ NOT NULL,
  run_id         VARCHAR NOT NULL
);

-- The files of each archived month, one per table: `file` is relative to the archive folder.
CREATE TABLE archive_files (
  month        VARCHAR NOT NULL,
  object       VARCHAR NOT NULL,                -- payouts | refunds | adjustments | file_lines
  file         VARCHAR NOT NULL,
  rows         BIGINT NOT NULL,
  bytes        BIGINT NOT NULL,
  fingerprint  VARCHAR NOT NULL,                -- of the rows, as the snapshot's month files are fingerprinted
  PRIMARY KEY (month, object)
);

-- The disbursements whose lines are archived. The checks that read lines leave them out (their findings are
-- kept as they were, never resolved for want of lines); a disbursement the service changes again brings its
-- month back into the store first.
CREATE TABLE archived_disbursements (
  disbursement_id  VARCHAR PRIMARY KEY,
  month            VARCHAR NOT NULL
);

-- What the duplicate checks need of archived lines: a payment settled again after its first settlement was
-- archived is still a repeat (sql/staging/settled_repeats.sql).
CREATE TABLE archived_line_keys (
  kind             VARCHAR NOT NULL,            -- payout | refund | adjustment
  dup_id           VARCHAR NOT NULL,            -- payment_id | refund_id | reference
  disbursement_id  VARCHAR NOT NULL,
  line_no          INTEGER NOT NULL
);
