-- recon's schema in PostgreSQL (recon export --postgres, recon run --export-postgres): the store's tables
-- and the finance views, as tables, in the schema recon writes (--pg-schema, default recon; this file runs
-- with search_path set to it). Types are exact: money is bigint subunits beside its currency, sums are
-- numeric, a `_major` column is numeric in major units with its currency's decimals (JPY 1234, EUR 12.34,
-- KWD 1.234), times are timestamptz, the service's JSON is jsonb.
--
-- The large tables are partitioned by month (LIST on `month`, 'YYYY-MM' in the books' time zone, 'none'
-- for rows without one): a disbursement's rows by the month of its delivery, exceptions and finding_groups
-- by the month of their check run, bank_transactions by booking month. recon creates each month's
-- partition (<table>_pYYYY_MM) and replaces a changed month's rows in one transaction, with the finance
-- views' rows of that month; readers see the month before or after, never half. The rest is replaced
-- whole, in one transaction, when it changed.

-- Column groups several tables carry, each stated once: `LIKE` copies a group's names, types and NOT NULL
-- into a table at the place it stands. The groups are dropped at the end of this file; the tables keep
-- their columns and nothing refers to the groups.
CREATE TABLE _line_columns (              -- a payout's, refund's or adjustment's last columns
  currency   text,
  amount     bigint,                      -- subunits of currency
  run_id     text NOT NULL,
  raw        jsonb,
  occurrence integer
);
CREATE TABLE _finding_subject (           -- what a finding is about (exceptions, findings, open_exceptions)
  disbursement_id text,
  recipient_id    text,
  subject         text,
  currency        text,
  expected        bigint,
  actual          bigint,
  difference      bigint
);
CREATE TABLE _disbursement_figures (      -- a disbursement's list record (disbursements, their history)
  delivered_at          timestamptz,
  number_of_payments    bigint,
  number_of_refunds     bigint,
  number_of_adjustments bigint,
  amount                bigint,           -- subunits of currency
  currency              text,
  bank_account_number   text              -- masked by the service
);
CREATE TABLE _acknowledgement (           -- a finding's standing acknowledgement (findings, open_exceptions)
  ack_by         text,
  ack_at         timestamptz,
  ack_note       text,
  ack_expected   bigint,
  ack_actual     bigint,
  ack_difference bigint
);

CREATE TABLE disbursements (
  month                 text NOT NULL,
  disbursement_id       text NOT NULL,
  recipient_id          text,
  status                text,
  LIKE _disbursement_figures,
  sync_status           text NOT NULL,       -- complete | invalid | incomplete
  sync_note             text,
  version               integer NOT NULL,
  content_hash          text NOT NULL,
  first_run_id          text NOT NULL,
  run_id                text NOT NULL,
  synced_at             timestamptz NOT NULL,
  raw                   jsonb,
  PRIMARY KEY (month, disbursement_id)
) PARTITION BY LIST (month);

CREATE TABLE payouts (
  month           text NOT NULL,
  disbursement_id text NOT NULL,
  line_no         integer NOT NULL,
  recipient_id    text,
  reference       text,
  status          text,
  payment_id      text,
  LIKE _line_columns
) PARTITION BY LIST (month);
CREATE INDEX ON payouts (disbursement_id);

CREATE TABLE refunds (
  month                      text NOT NULL,
  disbursement_id            text NOT NULL,
  line_no                    integer NOT NULL,
  refund_id                  text,
  payment_id                 text,
  payment_external_reference text,
  LIKE _line_columns
) PARTITION BY LIST (month);
CREATE INDEX ON refunds (disbursement_id);

CREATE TABLE adjustments (
  month            text NOT NULL,
  disbursement_id  text NOT NULL,
  line_no          integer NOT NULL,
  reference        text,
  category         text,
  entry_type       text,
  entity           text,
  entity_reference text,
  LIKE _line_columns
) PARTITION BY LIST (month);
CREATE INDEX ON adjustments (disbursement_id);

CREATE TABLE disbursement_files (
  month           text NOT NULL,
  disbursement_id text NOT NULL,
  file_no         integer NOT NULL,
  name            text,
  extension       text,
  sha256          text,
  size_bytes      bigint,
  layout          text,
  parse_status    text NOT NULL,
  parse_error     text,
  line_count      integer,
  footer_count    bigint,
  footer_total    bigint,
  run_id          text NOT NULL,
  downloaded_at   timestamptz
) PARTITION BY LIST (month);
CREATE INDEX ON disbursement_files (disbursement_id);

CREATE TABLE file_lines (
  month           text NOT NULL,
  disbursement_id text NOT NULL,
  file_no         integer NOT NULL,
  line_no         integer NOT NULL,
  kind            text,
  entry_type      text,
  reference       text,
  payment_id      text,
  currency        text,
  amount          bigint,
  run_id          text NOT NULL,
  raw             text,
  occurrence      integer
) PARTITION BY LIST (month);
CREATE INDEX ON file_lines (disbursement_id);

CREATE TABLE disbursement_history (
  month                 text NOT NULL,
  disbursement_id       text NOT NULL,
  version               integer NOT NULL,
  recipient_id          text,
  LIKE _disbursement_figures,
  sync_status           text,
  content_hash          text,
  payouts_count         bigint,
  payouts_sum           numeric,
  refunds_count         bigint,
  refunds_sum           numeric,
  adjustments_count     bigint,
  adjustments_net       numeric,
  lines                 jsonb,
  run_id                text NOT NULL,
  superseded_at         timestamptz NOT NULL,
  superseded_by_run_id  text NOT NULL,
  raw                   jsonb,
  PRIMARY KEY (month, disbursement_id, version)
) PARTITION BY LIST (month);

CREATE TABLE exceptions (
  month           text NOT NULL,                -- of the check run (created_at)
  run_id          text NOT NULL,
  finding_key     text NOT NULL,
  check_id        text NOT NULL,
  severity        text NOT NULL,
  LIKE _finding_subject,
  detail          text NOT NULL,
  status          text NOT NULL,
  created_at      timestamptz NOT NULL
) PARTITION BY LIST (month);
CREATE INDEX ON exceptions (run_id);
CREATE INDEX ON exceptions (disbursement_id);

CREATE TABLE bank_transactions (
  month            text NOT NULL,               -- of booking_date (else value_date)
  statement_id     text NOT NULL,
  entry_ref        text NOT NULL,
  format           text NOT NULL,
  account          text NOT NULL,               -- masked
  account_tail     text,
  booking_date     date,
  value_date       date,
  amount           bigint NOT NULL,
  currency         text NOT NULL,
  direction        text NOT NULL,
  end_to_end_id    text,
  remittance       text,
  counterparty     text,
  raw              text,
  file_name        text,
  run_id           text NOT NULL,
  imported_at      timestamptz NOT NULL,
  account_key      text,
  entry_key        text,
  batch_refs       text,
  batch_count      integer,
  PRIMARY KEY (month, statement_id, entry_ref)
) PARTITION BY LIST (month);

-- The finance views, as tables (sql/marts and sql/staging/bank_status.sql say what each column means).

CREATE TABLE reconciliation (
  month                        text NOT NULL,
  disbursement_id              text NOT NULL,
  recipient_id                 text,
  delivered_at                 timestamptz,
  currency                     text,
  reported                     bigint,
  computed                     numeric,
  difference                   numeric,
  payouts_count                bigint,
  payouts_sum                  numeric,
  refunds_count                bigint,
  refunds_sum                  numeric,
  credits_count                bigint,
  credits_sum                  numeric,
  debits_count                 bigint,
  debits_sum                   numeric,
  other_adjustments_count      bigint,
  other_adjustments_sum        numeric,
  open_findings                bigint,
  acknowledged_findings        bigint,
  sync_status                  text,
  sync_note                    text,
  status                       text,
  reported_major               numeric,
  computed_major               numeric,
  difference_major             numeric,
  payouts_sum_major            numeric,
  refunds_sum_major            numeric,
  credits_sum_major            numeric,
  debits_sum_major             numeric,
  other_adjustments_sum_major  numeric,
  PRIMARY KEY (month, disbursement_id)
) PARTITION BY LIST (month);

CREATE TABLE monthly_summary (
  month                    text NOT NULL,
  recipient_id             text,
  currency                 text,
  disbursements            bigint,
  incomplete               bigint,
  payouts_count            bigint,
  payouts                  numeric,
  refunds_count            bigint,
  refunds                  numeric,
  credit_adjustments       numeric,
  debit_adjustments        numeric,
  other_adjustments        numeric,
  computed_net             numeric,
  disbursed_total          numeric,
  variance                 numeric,
  payouts_major            numeric,
  refunds_major            numeric,
  credit_adjustments_major numeric,
  debit_adjustments_major  numeric,
  other_adjustments_major  numeric,
  computed_net_major       numeric,
  disbursed_total_major    numeric,
  variance_major           numeric
) PARTITION BY LIST (month);

CREATE TABLE bank_status (
  month                  text NOT NULL,
  disbursement_id        text NOT NULL,
  recipient_id           text,
  currency               text,
  amount                 bigint,
  delivered_at           timestamptz,
  bank_account_number    text,
  statement_id           text,
  entry_ref              text,
  credited_on            date,
  matched_by_reference   boolean,
  match_kind             text,
  credit_amount          bigint,
  fee                    bigint,
  batch_size             integer,
  covered_until          date,
  settlement             text,
  bank_status            text,
  credited               numeric,
  bank_difference        numeric,
  amount_major           numeric,
  credit_amount_major    numeric,
  fee_major              numeric,
  credited_major         numeric,
  bank_difference_major  numeric
) PARTITION BY LIST (month);
CREATE INDEX ON bank_status (disbursement_id);

CREATE TABLE finding_groups (
  month        text NOT NULL,                   -- of the check run
  run_id       text NOT NULL,
  finding_key  text NOT NULL,
  cause        text,
  currency     text,
  stake        numeric,
  stake_major  numeric,
  root_key     text,
  is_root      boolean,
  group_size   integer
) PARTITION BY LIST (month);
CREATE INDEX ON finding_groups (run_id);

-- Written whole.

CREATE TABLE runs (
  run_id                text PRIMARY KEY,
  command               text NOT NULL,
  started_at            timestamptz NOT NULL,
  finished_at           timestamptz,
  status                text NOT NULL,
  service_url           text,
  options               jsonb,                  -- as recorded: never a key or a password
  disbursements_listed  integer,
  disbursements_loaded  integer,
  disbursements_skipped integer,
  lines_loaded          bigint,
  files_downloaded      integer,
  quarantined           integer,
  restated              integer,
  requests              bigint,
  retries               bigint,
  rate_limited          bigint,
  error                 text,
  paused_ms             bigint,
  warnings              text
);

CREATE TABLE findings (
  finding_key     text PRIMARY KEY,
  check_id        text NOT NULL,
  severity        text NOT NULL,
  LIKE _finding_subject,
  detail          text NOT NULL,
  state           text NOT NULL,
  first_seen      timestamptz NOT NULL,
  last_seen       timestamptz NOT NULL,
  first_run_id    text NOT NULL,
  last_run_id     text NOT NULL,
  resolved_at     timestamptz,
  resolved_run_id text,
  LIKE _acknowledgement,
  shown_run_id    text
);

CREATE TABLE finding_acks (
  finding_key text NOT NULL,
  seq         integer NOT NULL,
  action      text NOT NULL,
  ack_by      text NOT NULL,
  ack_at      timestamptz NOT NULL,
  note        text NOT NULL,
  expected    bigint,
  actual      bigint,
  difference  bigint,
  currency    text,
  PRIMARY KEY (finding_key, seq)
);

CREATE TABLE closes (
  month           text NOT NULL,
  version         integer NOT NULL,
  closed_at       timestamptz NOT NULL,
  run_id          text NOT NULL,
  workbook        text,
  disbursements   integer NOT NULL,
  disbursed_total numeric NOT NULL,
  accepted_by     text,
  accepted_note   text,
  accepted        text,
  PRIMARY KEY (month, version)
);

CREATE TABLE close_disbursements (
  month           text NOT NULL,
  version         integer NOT NULL,
  disbursement_id text NOT NULL,
  content_hash    text NOT NULL,
  amount          bigint,
  currency        text,
  PRIMARY KEY (month, version, disbursement_id)
);

CREATE TABLE quarantine (
  run_id          text NOT NULL,
  disbursement_id text,
  resource        text NOT NULL,
  line_no         integer,
  reason          text NOT NULL,
  raw             text,
  quarantined_at  timestamptz NOT NULL
);
ALTER TABLE quarantine REPLICA IDENTITY FULL;

CREATE TABLE bank_refusals (
  run_id     text NOT NULL,
  file_name  text NOT NULL,
  reason     text NOT NULL,
  refused_at timestamptz NOT NULL
);
ALTER TABLE bank_refusals REPLICA IDENTITY FULL;

CREATE TABLE payment_samples (
  payment_id               text NOT NULL,
  disbursement_id          text NOT NULL,
  payout_reference         text,
  sampled_run_id           text NOT NULL,
  sampled_at               timestamptz NOT NULL,
  http_status              integer,
  payment_status           text,
  reported_disbursement_id text,
  payout_found             boolean,
  payout_amount            bigint,
  payout_currency          text,
  raw                      jsonb,
  PRIMARY KEY (payment_id, disbursement_id)
);

CREATE TABLE open_exceptions (
  finding_key          text PRIMARY KEY,
  status               text,
  age_days             integer,                 -- as of the export
  check_id             text,
  severity             text,
  LIKE _finding_subject,
  detail               text,
  state                text,
  first_seen           timestamptz,
  last_seen            timestamptz,
  first_run_id         text,
  last_run_id          text,
  LIKE _acknowledgement,
  expected_major       numeric,
  actual_major         numeric,
  difference_major     numeric,
  ack_expected_major   numeric,
  ack_actual_major     numeric,
  ack_difference_major numeric,
  stake                numeric,
  stake_major          numeric
);

CREATE TABLE acknowledgements (
  finding_key      text NOT NULL,
  seq              integer NOT NULL,
  action           text,
  ack_by           text,
  ack_at           timestamptz,
  note             text,
  check_id         text,
  disbursement_id  text,
  subject          text,
  currency         text,
  expected         bigint,
  actual           bigint,
  difference       bigint,
  expected_major   numeric,
  actual_major     numeric,
  difference_major numeric,
  "current"        boolean,
  finding_state    text,
  PRIMARY KEY (finding_key, seq)
);

-- The export's own records.

-- Each month recon holds here, with the fingerprint of what it wrote (committed with the month's rows).
CREATE TABLE export_months (
  month        text PRIMARY KEY,               -- 'YYYY-MM', 'none', or '*' for the tables written whole
  fingerprint  text NOT NULL,
  rows         bigint NOT NULL,
  exported_at  timestamptz NOT NULL,
  run_id       text NOT NULL
);

-- Each export: which run, when, what it replaced. status running while it writes (a reader that needs one
-- night throughout waits for finished_at), then succeeded, failed or interrupted (found by the next export).
CREATE TABLE exports (
  run_id          text PRIMARY KEY,            -- the store's runs.run_id of the export
  snapshot_run_id text,                        -- the night whose published snapshot was exported
  started_at      timestamptz NOT NULL,
  finished_at     timestamptz,
  status          text NOT NULL,
  months_replaced text[] NOT NULL DEFAULT '{}',
  months_removed  text[] NOT NULL DEFAULT '{}',
  rows_written    bigint NOT NULL DEFAULT 0,
  error           text
);

DROP TABLE _line_columns, _finding_subject, _disbursement_figures, _acknowledgement;
