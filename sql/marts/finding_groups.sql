-- One problem, one line (#27): each finding of a run (exceptions, still one row per finding) with the cause
-- it belongs to, the root finding of that cause and how many findings the cause has. A cause is one
-- disbursement × check × subject: the same missing payout reported once per file is one cause, and a
-- file's footers (file_vs_api, subject "<file> footer …") fold under that disbursement's file_vs_api line
-- with the most at stake (or, without one, under one footer cause of the disbursement). The root is the
-- cause's finding with the most at stake (a footer only when the cause is footers alone). `stake` is the
-- money at stake (finding_stake) in the finding's own currency; totals add the roots' only.
CREATE OR REPLACE VIEW finding_groups AS
WITH f AS (
  SELECT run_id, finding_key, check_id, disbursement_id, subject, currency, status,
    finding_stake(check_id, currency, expected, actual, difference) AS stake,
    check_id = 'file_vs_api' AND disbursement_id IS NOT NULL AND subject LIKE '% footer %' AS footer
  FROM exceptions
),
line AS (
  SELECT run_id, disbursement_id, subject FROM (
    SELECT run_id, disbursement_id, subject,
      row_number() OVER (PARTITION BY run_id, disbursement_id ORDER BY stake DESC NULLS LAST, subject) AS k
    FROM f
    WHERE check_id = 'file_vs_api' AND NOT footer AND disbursement_id IS NOT NULL
  ) WHERE k = 1
),
g AS (
  SELECT f.*,
    COALESCE(f.disbursement_id, '') || '|' || f.check_id || '|'
      || CASE WHEN f.footer THEN COALESCE(l.subject, '(footers)') ELSE COALESCE(f.subject, '') END AS cause
  FROM f
  LEFT JOIN line AS l ON f.footer AND l.run_id = f.run_id AND l.disbursement_id = f.disbursement_id
)
SELECT
  run_id, finding_key, cause, currency, stake,
  to_major(stake, currency) AS stake_major,
  first_value(finding_key) OVER w AS root_key,
  row_number() OVER w = 1 AS is_root,
  CAST(count(*) OVER (PARTITION BY run_id, cause) AS INTEGER) AS group_size
FROM g
WINDOW w AS (PARTITION BY run_id, cause ORDER BY footer, stake DESC NULLS LAST, finding_key);
