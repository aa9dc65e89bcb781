-- What each export last wrote, month by month: the fingerprint of a month's rows across every exported
-- table and view (src/store/month-fingerprint.ts), so the next export rewrites only the months whose
-- content changed. `target` names where (a PostgreSQL database and schema, never with a password);
-- `month` is 'YYYY-MM' in the books' time zone, 'none' for rows without a month, '*' for the objects
-- written whole. The PostgreSQL side keeps its own copy (export_months), committed with the month's rows;
-- this one is written once that commit is done.
CREATE TABLE month_exports (
  target       VARCHAR NOT NULL,
  month        VARCHAR NOT NULL,
  fingerprint  VARCHAR NOT NULL,
  rows         BIGINT NOT NULL,
  exported_at  TIMESTAMPTZ NOT NULL,
  run_id       VARCHAR NOT NULL,
  PRIMARY KEY (target, month)
);

-- What went wrong after a run's outcome was settled (an export to PostgreSQL that failed), one line each:
-- the run keeps its status and exit code, and says so here as well as on its summary.
ALTER TABLE runs ADD COLUMN warnings VARCHAR;
