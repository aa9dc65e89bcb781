-- the check files whose columns were validated (src/checks/contract.ts, validateCheckColumns), by a
-- hash of the check's SQL and of every SQL object and migration it may read. Binding each check to read
-- its columns cost 130–200 ms a run; a check is validated again only when something it reads changed.
CREATE TABLE check_contracts (
  contract_hash VARCHAR PRIMARY KEY,
  validated_at  TIMESTAMPTZ NOT NULL
);
