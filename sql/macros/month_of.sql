-- The month a moment belongs to, 'YYYY-MM', in UTC: the month of the close, of monthly_summary and of
-- currency_suspense (the interface's timestamps are UTC).
CREATE OR REPLACE MACRO month_of(ts) AS
  CAST(EXTRACT(YEAR FROM ts AT TIME ZONE 'UTC') AS VARCHAR)
    || '-' || lpad(CAST(EXTRACT(MONTH FROM ts AT TIME ZONE 'UTC') AS VARCHAR), 2, '0');
