-- The books' time zone (books_settings, written by every close from --books-tz; UTC until one says otherwise).
CREATE OR REPLACE MACRO books_tz() AS (
  (SELECT COALESCE(MAX(tz), 'UTC') FROM books_settings)
);
