-- Exceptions and their lifecycle (src/checks/runner.ts writes both, in one transaction per run).
-- `exceptions` is the history: one row per finding per check run, with its status as of that run.
-- `findings` is the current state: one row per finding_key (check_id + disbursement_id + subject).
-- No primary key on `exceptions`: it grows by every run's findings, and the runner guarantees one row
-- per (run_id, finding_key); an index of that size would cost memory for nothing.

CREATE TABLE check_runs (
  run_id      VARCHAR PRIMARY KEY,
  checked_at  TIMESTAMPTZ NOT NULL,             -- the clock the lifecycle used (injected in tests)
  checks      VARCHAR NOT NULL,                 -- comma-separated check ids that ran
  findings    BIGINT NOT NULL
);

CREATE TABLE exceptions (
  run_id          VARCHAR NOT NULL,
  finding_key     VARCHAR NOT NULL,
  check_id        VARCHAR NOT NULL,
  severity        VARCHAR NOT NULL,             -- error | warning
  disbursement_id VARCHAR,
  recipient_id    VARCHAR,
  subject         VARCHAR,
  currency        VARCHAR,
  expected        BIGINT,                       -- subunits (or a count for count_* checks)
  actual          BIGINT,
  difference      BIGINT,                       -- actual - expected
  detail          VARCHAR NOT NULL,
  status          VARCHAR NOT NULL,             -- new | open | acknowledged, as of this run
  created_at      TIMESTAMPTZ NOT NULL
);

CREATE TABLE findings (
  finding_key     VARCHAR PRIMARY KEY,
  check_id        VARCHAR NOT NULL,
  severity        VARCHAR NOT NULL,
  disbursement_id VARCHAR,
  recipient_id    VARCHAR,
  subject         VARCHAR,
  currency        VARCHAR,
  expected        BIGINT,                       -- numbers as of last_run_id
  actual          BIGINT,
  difference      BIGINT,
  detail          VARCHAR NOT NULL,
  state           VARCHAR NOT NULL,             -- open | acknowledged | resolved
  first_seen      TIMESTAMPTZ NOT NULL,         -- reset when a resolved finding comes back
  last_seen       TIMESTAMPTZ NOT NULL,
  first_run_id    VARCHAR NOT NULL,
  last_run_id     VARCHAR NOT NULL,
  resolved_at     TIMESTAMPTZ,
  resolved_run_id VARCHAR,
  -- Kept when the finding re-opens (numbers changed), so the workbook can say who accepted what.
  ack_by          VARCHAR,
  ack_at          TIMESTAMPTZ,
  ack_note        VARCHAR,
  ack_expected    BIGINT,                       -- numbers at ack time: a change re-opens the finding
  ack_actual      BIGINT,
  ack_difference  BIGINT
);
