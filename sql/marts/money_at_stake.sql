-- Money at stake per run and currency: the money of the causes that need a person (new or still open), each
-- cause's money once (finding_groups' cause_stake), never added across currencies. The one place the figure
-- is computed: the workbook's Summary, the mail, the alert, the metrics, the results file and JUnit read it.
CREATE OR REPLACE VIEW money_at_stake AS
SELECT
  run_id,
  currency,
  CAST(sum(cause_stake) AS HUGEINT) AS at_stake,
  to_major(CAST(sum(cause_stake) AS HUGEINT), currency) AS at_stake_major,
  CAST(count(*) AS INTEGER) AS causes
FROM finding_groups
WHERE cause_stake IS NOT NULL AND needs_person
GROUP BY run_id, currency;
