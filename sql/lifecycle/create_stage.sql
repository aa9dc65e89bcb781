-- Where a check run's findings are staged, check by check, before the lifecycle takes them (runner.ts).
-- finding_key: NULL for a row a check produced (insert_exceptions.sql computes it); the finding's own key
-- for an open finding a night carried forward unchanged (sql/scope/carry.sql).
CREATE OR REPLACE TEMP TABLE check_stage (
  file_id VARCHAR NOT NULL,
  check_id VARCHAR, severity VARCHAR, disbursement_id VARCHAR, recipient_id VARCHAR, subject VARCHAR,
  currency VARCHAR, expected BIGINT, actual BIGINT, difference BIGINT, detail VARCHAR,
  finding_key VARCHAR
)
