-- Core store: what the sync pulls from the payments service.
-- Money is integer subunits (BIGINT); sums use HUGEINT in views and checks. Every row carries the
-- run_id that wrote it. `raw` keeps the service's JSON as received (unknown fields included).

CREATE TABLE runs (
  run_id             VARCHAR PRIMARY KEY,
  command            VARCHAR NOT NULL,            -- sync | run | check | close ...
  started_at         TIMESTAMPTZ NOT NULL,
  finished_at        TIMESTAMPTZ,
  status             VARCHAR NOT NULL,            -- running | succeeded | failed | interrupted
  service_url        VARCHAR,
  options            JSON,
  disbursements_listed  INTEGER DEFAULT 0,
  disbursements_loaded  INTEGER DEFAULT 0,
  disbursements_skipped INTEGER DEFAULT 0,
  lines_loaded       BIGINT DEFAULT 0,
  files_downloaded   INTEGER DEFAULT 0,
  quarantined        INTEGER DEFAULT 0,
  restated           INTEGER DEFAULT 0,
  requests           BIGINT DEFAULT 0,
  retries            BIGINT DEFAULT 0,
  rate_limited       BIGINT DEFAULT 0,
  error              VARCHAR
);

CREATE TABLE disbursements (
  disbursement_id       VARCHAR PRIMARY KEY,
  recipient_id          VARCHAR,
  status                VARCHAR,
  delivered_at          TIMESTAMPTZ,
  number_of_payments    BIGINT,
  number_of_refunds     BIGINT,
  number_of_adjustments BIGINT,
  amount                BIGINT,                   -- subunits
  currency              VARCHAR,
  bank_account_number   VARCHAR,                  -- masked by the service
  -- complete: every line read and valid | invalid: some records quarantined |
  -- incomplete: some lines could not be read (never reported as reconciled)
  sync_status           VARCHAR NOT NULL,
  sync_note             VARCHAR,
  version               INTEGER NOT NULL DEFAULT 1,  -- bumped on each restatement
  content_hash          VARCHAR NOT NULL,         -- sha256 of record + lines, to detect restatements
  first_run_id          VARCHAR NOT NULL,
  run_id                VARCHAR NOT NULL,
  synced_at             TIMESTAMPTZ NOT NULL,
  raw                   JSON
);

-- Earlier versions of restated disbursements: never silently overwritten.
CREATE TABLE disbursement_history (
  disbursement_id       VARCHAR NOT NULL,
  version               INTEGER NOT NULL,
  recipient_id          VARCHAR,
  delivered_at          TIMESTAMPTZ,
  number_of_payments    BIGINT,
  number_of_refunds     BIGINT,
  number_of_adjustments BIGINT,
  amount                BIGINT,
  currency              VARCHAR,
  bank_account_number   VARCHAR,
  sync_status           VARCHAR,
  content_hash          VARCHAR,
  payouts_count         BIGINT,
  payouts_sum           HUGEINT,
  refunds_count         BIGINT,
  refunds_sum           HUGEINT,
  adjustments_count     BIGINT,
  adjustments_net       HUGEINT,
  lines                 JSON,                     -- the superseded lines, as they were stored
  run_id                VARCHAR NOT NULL,         -- run that had written this version
  superseded_at         TIMESTAMPTZ NOT NULL,
  superseded_by_run_id  VARCHAR NOT NULL,
  raw                   JSON,
  PRIMARY KEY (disbursement_id, version)
);

CREATE TABLE payouts (
  disbursement_id VARCHAR NOT NULL,
  line_no         INTEGER NOT NULL,               -- position in the service's list, from 1
  recipient_id    VARCHAR,
  reference       VARCHAR,
  status          VARCHAR,
  payment_id      VARCHAR,
  currency        VARCHAR,
  amount          BIGINT,
  run_id          VARCHAR NOT NULL,
  raw             JSON
);

CREATE TABLE refunds (
  disbursement_id            VARCHAR NOT NULL,
  line_no                    INTEGER NOT NULL,
  refund_id                  VARCHAR,
  payment_id                 VARCHAR,
  payment_external_reference VARCHAR,
  currency                   VARCHAR,
  amount                     BIGINT,
  run_id                     VARCHAR NOT NULL,
  raw                        JSON
);

CREATE TABLE adjustments (
  disbursement_id  VARCHAR NOT NULL,
  line_no          INTEGER NOT NULL,
  reference        VARCHAR,
  category         VARCHAR,
  entry_type       VARCHAR,                       -- credit | debit (anything else is a finding)
  entity           VARCHAR,
  entity_reference VARCHAR,
  currency         VARCHAR,
  amount           BIGINT,
  run_id           VARCHAR NOT NULL,
  raw              JSON
);

CREATE TABLE disbursement_files (
  disbursement_id VARCHAR NOT NULL,
  file_no         INTEGER NOT NULL,               -- position in the /files answer, from 1
  name            VARCHAR,                        -- as the service named it (untrusted, never a path)
  extension       VARCHAR,
  sha256          VARCHAR,                        -- content address under <db folder>/files/
  size_bytes      BIGINT,
  layout          VARCHAR,                        -- id from src/extract/layouts.json, NULL if unrecognised
  -- parsed | unrecognised | unparseable | too_large | download_failed
  parse_status    VARCHAR NOT NULL,
  parse_error     VARCHAR,
  line_count      INTEGER,
  footer_count    BIGINT,                         -- record count stated by a footer line, if any
  footer_total    BIGINT,                         -- net total stated by a footer line, if any (subunits)
  run_id          VARCHAR NOT NULL,
  downloaded_at   TIMESTAMPTZ
);

-- One row per detail line of a parsed file, normalised so checks can match it against API lines.
CREATE TABLE file_lines (
  disbursement_id VARCHAR NOT NULL,
  file_no         INTEGER NOT NULL,
  line_no         INTEGER NOT NULL,               -- physical line number in the file, from 1
  kind            VARCHAR,                        -- payout | refund | adjustment
  entry_type      VARCHAR,                        -- credit | debit for adjustments, else NULL
  reference       VARCHAR,                        -- payout reference / refund_id / adjustment reference
  payment_id      VARCHAR,
  currency        VARCHAR,
  amount          BIGINT,                         -- subunits, positive as in the API
  run_id          VARCHAR NOT NULL,
  raw             VARCHAR                         -- the line as it was in the file
);

-- Records that failed validation: kept raw with the reason, never dropped.
CREATE TABLE quarantine (
  run_id          VARCHAR NOT NULL,
  disbursement_id VARCHAR,
  resource        VARCHAR NOT NULL,               -- disbursement | payout | refund | adjustment | file | page
  line_no         INTEGER,
  reason          VARCHAR NOT NULL,
  raw             VARCHAR,
  quarantined_at  TIMESTAMPTZ NOT NULL
);
