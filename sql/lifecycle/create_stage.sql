-- Where a check run's findings are staged, check by check, before the lifecycle takes them (runner.ts).
CREATE OR REPLACE TEMP TABLE check_stage (
  file_id VARCHAR NOT NULL,
  check_id VARCHAR, severity VARCHAR, disbursement_id VARCHAR, recipient_id VARCHAR, subject VARCHAR,
  currency VARCHAR, expected BIGINT, actual BIGINT, difference BIGINT, detail VARCHAR
)
