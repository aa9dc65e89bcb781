-- The third leg (#17, #25): which credits could settle which disbursements. The matching itself is in
-- 41_bank_matches.sql, what became of every credit and disbursement in 42_bank_status.sql.
--
-- A credit can settle a disbursement when it is in the same currency, its value date (else its booking
-- date) is on or after the delivery day (a day earlier allowed: delivered_at is UTC, the bank's dates are
-- local) and at most bank_settings.window_business_days business days (Monday to Friday) after it, and the
-- digits the service leaves visible in the masked bank_account_number agree with the statement account's
-- last digits. A credit names a disbursement when its remittance text, end-to-end id or (a batch booking)
-- its transactions' references hold the disbursement id as a word.

-- Weekdays in (a, b]: 0 when b is a, negative when b is before a.
CREATE OR REPLACE MACRO business_days_after(a, b) AS (
  CASE WHEN b < a THEN -1 ELSE
    (datediff('day', a, b) // 7) * 5
    + len(list_filter(range(1, CAST(datediff('day', a, b) % 7 AS BIGINT) + 1), k -> ((isodow(a) - 1 + k) % 7) < 5))
  END
);

-- The last four digits of an account as a statement or a mask shows it ('****1234', 'NL91ABNA0417164300').
CREATE OR REPLACE MACRO account_digits_tail(account) AS (
  right(regexp_replace(COALESCE(account, ''), '[^0-9]', '', 'g'), 4)
);

-- The digits a masked account shows (d_tail) agree with a statement account's last digits.
CREATE OR REPLACE MACRO tail_agrees(d_tail, c_tail) AS (
  d_tail = '' OR right(COALESCE(c_tail, ''), length(d_tail)) = d_tail
);

-- The run's --bank-window-days (bank_settings), 3 when unset.
CREATE OR REPLACE MACRO bank_window_days() AS (
  (SELECT COALESCE(MAX(window_business_days), 3) FROM bank_settings)
);

-- A credit valued on value_on can settle a disbursement delivered on delivered_on.
CREATE OR REPLACE MACRO in_bank_window(delivered_on, value_on) AS (
  value_on >= delivered_on - INTERVAL 1 DAY AND business_days_after(delivered_on, value_on) <= bank_window_days()
);

-- Disbursements and credits as the matching reads them.
CREATE OR REPLACE VIEW bank_disbursements AS
SELECT disbursement_id, recipient_id, currency, amount, CAST(delivered_at AS DATE) AS delivered_on,
  account_digits_tail(bank_account_number) AS tail
FROM disbursements;

CREATE OR REPLACE VIEW bank_credit_entries AS
SELECT statement_id, entry_ref, account, account_tail, COALESCE(value_date, booking_date) AS value_on, amount, currency, counterparty,
  lower(COALESCE(remittance, '') || ' ' || COALESCE(end_to_end_id, '') || ' ' || COALESCE(batch_refs, '')) AS refs
FROM bank_transactions
WHERE direction = 'credit';

-- Every disbursement a credit names: its texts split into words (letters, digits, _ and -), each word
-- looked up among the disbursement ids (an equi-join, not a scan of every id for every credit).
CREATE OR REPLACE VIEW bank_named_all AS
WITH words AS (
  SELECT DISTINCT statement_id, entry_ref, unnest(regexp_split_to_array(refs, '[^a-z0-9_-]+')) AS word
  FROM bank_credit_entries
)
SELECT DISTINCT w.statement_id, w.entry_ref, d.disbursement_id
FROM words AS w
JOIN disbursements AS d ON lower(d.disbursement_id) = w.word;

-- The disbursement a credit names (the first, when it names several).
CREATE OR REPLACE VIEW bank_named AS
SELECT statement_id, entry_ref, min(disbursement_id) AS disbursement_id
FROM bank_named_all
GROUP BY statement_id, entry_ref;

-- One-to-one candidates: same currency and amount, in the window; account_agrees says whether the
-- account's visible digits agree (a credit naming a disbursement on another account is a finding).
CREATE OR REPLACE VIEW bank_candidates AS
SELECT
  d.disbursement_id, c.statement_id, c.entry_ref,
  contains(c.refs, lower(d.disbursement_id)) AS by_reference,
  business_days_after(d.delivered_on, c.value_on) AS days_after,
  tail_agrees(d.tail, c.account_tail) AS account_agrees
FROM bank_disbursements AS d
JOIN bank_credit_entries AS c ON c.currency = d.currency AND c.amount = d.amount
WHERE in_bank_window(d.delivered_on, c.value_on);

-- A batch credit by its references (#25): a credit naming two or more disbursements of its currency, on
-- its account and in its window, whose amounts add up to it exactly (a camt.053 batch booking whose
-- transactions name the disbursements, or a remittance listing them). A disbursement two such credits
-- claim is left to the findings.
CREATE OR REPLACE VIEW bank_batch_by_reference AS
WITH named AS (
  SELECT n.statement_id, n.entry_ref, d.disbursement_id, d.amount, c.amount AS credit_amount,
    business_days_after(d.delivered_on, c.value_on) AS days_after
  FROM bank_named_all AS n
  JOIN bank_credit_entries AS c ON c.statement_id = n.statement_id AND c.entry_ref = n.entry_ref
  JOIN bank_disbursements AS d ON d.disbursement_id = n.disbursement_id
  WHERE d.currency = c.currency AND tail_agrees(d.tail, c.account_tail) AND in_bank_window(d.delivered_on, c.value_on)
),
whole AS (
  SELECT statement_id, entry_ref, count(*) AS batch_size
  FROM named
  GROUP BY statement_id, entry_ref
  HAVING count(*) >= 2 AND CAST(sum(amount) AS HUGEINT) = any_value(credit_amount)
),
members AS (
  SELECT n.* , w.batch_size FROM named AS n JOIN whole AS w ON w.statement_id = n.statement_id AND w.entry_ref = n.entry_ref
),
contested AS (
  SELECT DISTINCT m.statement_id, m.entry_ref
  FROM members AS m
  WHERE m.disbursement_id IN (SELECT disbursement_id FROM members GROUP BY disbursement_id HAVING count(*) > 1)
)
SELECT m.disbursement_id, m.statement_id, m.entry_ref, true AS by_reference, m.days_after, m.batch_size
FROM members AS m
WHERE NOT EXISTS (SELECT 1 FROM contested AS x WHERE x.statement_id = m.statement_id AND x.entry_ref = m.entry_ref);
