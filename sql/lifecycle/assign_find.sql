-- The finding a person assigns ($1 its key), with its current owner.
SELECT check_id, disbursement_id, state, resolved_run_id, owner FROM findings WHERE finding_key = $1
