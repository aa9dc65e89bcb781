-- How long the causes that need a person have been open (check run $1, counted to $2): each cause once (its
-- root in finding_groups, new or still open), aged in business days (Monday to Friday, business_days_after)
-- from its root's first sighting to $2, both as UTC days, in buckets 0–2, 3–7, 8–30 and more than 30, per
-- currency with the money at stake of those causes (finding_groups.stake: never added across currencies;
-- NULL where no cause of the bucket carries money). Causes without a currency (counts) are a row of their own.
WITH aged AS (
  SELECT g.currency, g.stake,
    greatest(0, business_days_after(CAST(f.first_seen AT TIME ZONE 'UTC' AS DATE),
      CAST(CAST($2 AS TIMESTAMPTZ) AT TIME ZONE 'UTC' AS DATE))) AS age
  FROM finding_groups AS g
  JOIN exceptions AS e ON e.run_id = g.run_id AND e.finding_key = g.finding_key
  JOIN findings AS f ON f.finding_key = g.finding_key
  WHERE g.run_id = $1 AND g.is_root AND e.status IN ('new', 'open')
)
SELECT currency,
  CASE WHEN age <= 2 THEN 0 WHEN age <= 7 THEN 1 WHEN age <= 30 THEN 2 ELSE 3 END AS bucket,
  count(*) AS causes,
  CAST(sum(stake) AS VARCHAR) AS at_stake,
  max(age) AS oldest
FROM aged
GROUP BY ALL
ORDER BY currency NULLS LAST, bucket
