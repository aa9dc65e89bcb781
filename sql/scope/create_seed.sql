-- What a night re-checks starts from its seeds: per source, the disbursements a run wrote rows of since the
-- last complete check run (src/checks/scope.ts reads them by the tables each check reads).
CREATE OR REPLACE TEMP TABLE scope_seed (
  source VARCHAR NOT NULL,            -- disbursements | gone | quarantine | payment_samples | closes
  disbursement_id VARCHAR NOT NULL,
  run_id VARCHAR                      -- the run that wrote a disbursement (source disbursements)
)
