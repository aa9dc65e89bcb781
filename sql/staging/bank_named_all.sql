-- Every disbursement a credit names: its texts split into words (letters, digits, _ and -), each word
-- looked up among the disbursement ids (an equi-join, not a scan of every id for every credit).
CREATE OR REPLACE VIEW bank_named_all AS
WITH words AS (
  SELECT statement_id, entry_ref, unnest(regexp_split_to_array(refs, '[^a-z0-9_-]+')) AS word
  FROM bank_credit_entries
)
SELECT DISTINCT w.statement_id, w.entry_ref, d.disbursement_id
FROM words AS w
JOIN disbursements AS d ON lower(d.disbursement_id) = w.word;
