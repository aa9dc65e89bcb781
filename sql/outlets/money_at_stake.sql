-- Money at stake per currency in a run's findings that need a person (new or still open), #27: the sum of
-- each cause's money at stake (finding_stake: the difference, or the whole amount a finding puts in
-- question), a cause's repeats (finding_groups) counted once. Never summed across currencies.
SELECT g.currency,
       CAST(sum(g.stake) AS VARCHAR) AS at_stake,
       count(*) AS findings
FROM finding_groups AS g
JOIN exceptions AS e ON e.run_id = g.run_id AND e.finding_key = g.finding_key
WHERE g.run_id = $1
  AND g.is_root
  AND e.status IN ('new', 'open')
  AND g.stake IS NOT NULL
GROUP BY g.currency
ORDER BY g.currency
