-- Incremental checks (src/checks/scope.ts): a night re-checks what changed since the last check run and
-- carries the other findings forward. check_runs says how each run checked (`full`: every check on the
-- whole store; `incremental`: each check on its scope; `only`: the checks named by --only, on the whole
-- store) and `basis`, a digest of what its findings were computed with (the check files, the SQL objects,
-- the schema, the bank and books settings): a night is incremental only on the basis of the run before.
-- checked_runs: the runs whose writes a complete check run (full or incremental) has taken in; a row
-- written by any other run (or under a run id of no run) is a change the next night checks.
ALTER TABLE check_runs ADD COLUMN mode VARCHAR;
ALTER TABLE check_runs ADD COLUMN basis VARCHAR;

CREATE TABLE checked_runs (
  run_id        VARCHAR PRIMARY KEY,
  check_run_id  VARCHAR NOT NULL               -- the check run that took its writes in
);
