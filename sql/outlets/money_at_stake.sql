-- Money at stake per currency in a run's findings that need a person (new or still open): the sum of
-- |difference|, or of the finding's own amount where it has no difference (actual, else expected).
-- Never summed across currencies. Issue #27 replaces this with findings grouped by cause, converted to
-- one reporting currency (src/outlets/money-at-stake.ts is the one caller).
SELECT currency,
       CAST(sum(abs(CAST(COALESCE(difference, actual, expected) AS HUGEINT))) AS VARCHAR) AS at_stake,
       count(*) AS findings
FROM exceptions
WHERE run_id = $1
  AND status IN ('new', 'open')
  AND currency IS NOT NULL
  AND COALESCE(difference, actual, expected) IS NOT NULL
GROUP BY currency
ORDER BY currency
