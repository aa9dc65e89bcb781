-- What recon learned about the service and keeps for later runs: e.g. 'per_page', the largest page size
-- the service accepted after refusing a larger one (its maximum is not shown in the interface).
CREATE TABLE service_settings (
  key         VARCHAR PRIMARY KEY,
  value       VARCHAR NOT NULL,
  learned_at  TIMESTAMPTZ NOT NULL,
  run_id      VARCHAR NOT NULL
);
