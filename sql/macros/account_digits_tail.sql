-- The last four digits of an account as a statement or a mask shows it ('****1234', 'NL91ABNA0417164300').
CREATE OR REPLACE MACRO account_digits_tail(account) AS (
  right(regexp_replace(COALESCE(account, ''), '[^0-9]', '', 'g'), 4)
);
