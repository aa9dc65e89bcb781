-- the time zone of the books, whose calendar months the close, monthly_summary, currency_suspense and
-- bank_month_split count in (month_of). Written by every `recon close` from --books-tz / RECON_BOOKS_TZ
-- (default UTC, the interface's own zone); a store starts in UTC, as before.
CREATE TABLE books_settings (
  tz VARCHAR NOT NULL                                  -- an IANA zone, e.g. Europe/Paris
);
INSERT INTO books_settings VALUES ('UTC');
