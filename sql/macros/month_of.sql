-- The month a moment belongs to, 'YYYY-MM', in the books' time zone (books_tz(): --books-tz of the close,
-- UTC unless set): the month of the close, of monthly_summary, currency_suspense and bank_month_split.
-- The interface's timestamps are UTC; 2026-10-31T23:30Z is November in Europe/Paris.
CREATE OR REPLACE MACRO month_of(ts) AS
  strftime(CAST(ts AS TIMESTAMPTZ) AT TIME ZONE books_tz(), '%Y-%m');
