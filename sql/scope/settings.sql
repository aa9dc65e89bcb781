-- The settings the checks' SQL objects read (the bank window and fee tolerance, the books' time zone), as
-- text: part of the basis a night is incremental on (a change makes the next check run full).
SELECT
  (SELECT CAST(list(s) AS VARCHAR) FROM (SELECT * FROM bank_settings ORDER BY ALL) AS s),
  (SELECT CAST(list(t) AS VARCHAR) FROM (SELECT * FROM bank_fee_tolerance ORDER BY ALL) AS t),
  (SELECT CAST(list(b) AS VARCHAR) FROM (SELECT * FROM books_settings ORDER BY ALL) AS b)
