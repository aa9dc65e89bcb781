-- Monthly closes: which month was closed when, by which version, and exactly what it contained, so a
-- later change to a closed month's disbursement (restatement, late arrival) is a post_close_change
-- finding and never silently rewrites a closed month.
CREATE TABLE closes (
  month          VARCHAR NOT NULL,               -- 'YYYY-MM' of delivered_at (UTC)
  version        INTEGER NOT NULL,               -- 1, then 2, 3 … when re-issued
  closed_at      TIMESTAMPTZ NOT NULL,
  run_id         VARCHAR NOT NULL,
  workbook       VARCHAR,                        -- path of the close workbook written
  disbursements  INTEGER NOT NULL,
  disbursed_total HUGEINT NOT NULL,              -- sum over currencies, for a quick glance only
  PRIMARY KEY (month, version)
);

CREATE TABLE close_disbursements (
  month           VARCHAR NOT NULL,
  version         INTEGER NOT NULL,
  disbursement_id VARCHAR NOT NULL,
  content_hash    VARCHAR NOT NULL,              -- disbursements.content_hash at close
  amount          BIGINT,
  currency        VARCHAR,
  PRIMARY KEY (month, version, disbursement_id)
);
