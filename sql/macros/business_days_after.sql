-- Weekdays in (a, b]: 0 when b is a, -1 when b is before a. Counted as the weekdays up to b less those up
-- to a, both counted from Monday 0001-01-01 (by arithmetic, where a list of the days in between was
-- built and filtered for every pair; test/unit/store/business-days.test.ts holds it to a day-by-day count).
CREATE OR REPLACE MACRO business_days_after(a, b) AS (
  CASE WHEN b < a THEN -1 ELSE
    weekdays_before(datediff('day', DATE '0001-01-01', b) + 1) - weekdays_before(datediff('day', DATE '0001-01-01', a) + 1)
  END
);
