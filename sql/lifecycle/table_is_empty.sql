-- Whether the table a check's `-- requires:` names holds no row (the runner then skips the check); the
-- name, plain words only (src/checks/contract.ts), goes where the braces are.
SELECT NOT EXISTS (SELECT 1 FROM {{table}})
