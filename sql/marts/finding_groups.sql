-- One problem, one line, its money once: each finding of a run (exceptions, still one row per finding) with
-- the cause it belongs to, the root finding of that cause, how many findings the cause has, and the cause's
-- money at stake.
--
-- A cause is one disbursement × check × subject: the same missing payout reported once per file is one
-- cause, and a file's footers (file_vs_api, subject "<file> footer …") fold under that disbursement's
-- file_vs_api line with the most at stake (or, without one, under one footer cause of the disbursement).
-- The checks that weigh a disbursement's lines against its total and its file (total_identity, file_vs_api,
-- gross_variance, currency_mismatch, unknown_entry_type) speak of the same money: a payout missing from the
-- API is the total's gap and the file's extra line at once, a file amount that differs is a file_vs_api line
-- and the gross variance at once. Their findings of one disbursement, in one currency, are one cause.
--
-- `stake` is a finding's own money at stake (finding_stake) in its own currency. `cause_stake`, on the
-- cause's root only, is the cause's money counted once: a subject's findings (one line seen by several files)
-- are that line's money once (the largest); a check's subjects are different lines, added; the several
-- checks of one disbursement's lines name the same money, so the cause's is the largest check's. A cause
-- `needs_person` when any of its findings is new or still open. Money at stake per currency is the sum of
-- cause_stake over the causes that need a person (the money_at_stake view): the Summary, the mail, the
-- alert, the metrics, the results file and the close all read it there.
CREATE OR REPLACE VIEW finding_groups AS
WITH f AS (
  SELECT run_id, finding_key, check_id, disbursement_id, subject, currency, status,
    finding_stake(check_id, currency, expected, actual, difference) AS stake,
    check_id = 'file_vs_api' AND disbursement_id IS NOT NULL AND subject LIKE '% footer %' AS footer,
    disbursement_id IS NOT NULL AND currency IS NOT NULL
      AND check_id IN ('total_identity', 'file_vs_api', 'gross_variance', 'currency_mismatch', 'unknown_entry_type') AS on_lines
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
    f.check_id || '|' || CASE WHEN f.footer THEN COALESCE(l.subject, '(footers)') ELSE COALESCE(f.subject, '') END AS part
  FROM f
  LEFT JOIN line AS l ON f.footer AND l.run_id = f.run_id AND l.disbursement_id = f.disbursement_id
),
c AS (
  SELECT g.*,
    CASE WHEN on_lines THEN disbursement_id || '|lines|' || currency ELSE COALESCE(disbursement_id, '') || '|' || part END AS cause
  FROM g
),
parts AS (
  SELECT run_id, cause, check_id, part, max(stake) AS stake FROM c GROUP BY run_id, cause, check_id, part
),
checks AS (
  SELECT run_id, cause, check_id, sum(stake) AS stake FROM parts GROUP BY run_id, cause, check_id
),
causes AS (
  SELECT run_id, cause, CAST(max(stake) AS HUGEINT) AS stake FROM checks GROUP BY run_id, cause
),
ranked AS (
  SELECT c.run_id, c.finding_key, c.cause, c.currency, c.stake,
    first_value(c.finding_key) OVER w AS root_key,
    row_number() OVER w = 1 AS is_root,
    CAST(count(*) OVER (PARTITION BY c.run_id, c.cause) AS INTEGER) AS group_size,
    bool_or(c.status IN ('new', 'open')) OVER (PARTITION BY c.run_id, c.cause) AS needs_person
  FROM c
  WINDOW w AS (PARTITION BY c.run_id, c.cause ORDER BY c.footer, c.stake DESC NULLS LAST, c.finding_key)
)
SELECT
  r.run_id, r.finding_key, r.cause, r.currency, r.stake,
  to_major(r.stake, r.currency) AS stake_major,
  r.root_key, r.is_root, r.group_size, r.needs_person,
  CASE WHEN r.is_root THEN s.stake END AS cause_stake,
  to_major(CASE WHEN r.is_root THEN s.stake END, r.currency) AS cause_stake_major
FROM ranked AS r
JOIN causes AS s ON s.run_id = r.run_id AND s.cause = r.cause;
