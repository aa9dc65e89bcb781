-- Weekdays in (a, b]: 0 when b is a, negative when b is before a.
CREATE OR REPLACE MACRO business_days_after(a, b) AS (
  CASE WHEN b < a THEN -1 ELSE
    (datediff('day', a, b) // 7) * 5
    + len(list_filter(range(1, CAST(datediff('day', a, b) % 7 AS BIGINT) + 1), k -> ((isodow(a) - 1 + k) % 7) < 5))
  END
);
