-- One page of a run's findings in check order (keyset on check and key, so the connection may be used
-- between pages), with when each was first seen and its cause (finding_groups: the root it repeats, the
-- cause's money on the root): the results file and the JUnit file list them all.
SELECT f.check_id, f.finding_key, f.status, f.severity, f.disbursement_id, f.recipient_id, f.subject,
       f.currency, f.expected, f.actual, f.difference, f.detail,
       COALESCE(l.first_seen, f.created_at) AS first_seen,
       g.root_key, g.is_root, g.cause_stake
FROM exceptions AS f
JOIN finding_groups AS g ON g.run_id = f.run_id AND g.finding_key = f.finding_key
LEFT JOIN findings AS l ON l.finding_key = f.finding_key
WHERE f.run_id = $1 AND (f.check_id, f.finding_key) > ($2, $3)
ORDER BY f.check_id, f.finding_key
LIMIT $4
