-- The third leg (#17): which bank credit settled which disbursement.
--
-- A credit can settle a disbursement when it is in the same currency and for the same amount, its value
-- date (else its booking date) is on or after the delivery day (a day earlier allowed: delivered_at is
-- UTC, the bank's dates are local) and at most bank_settings
-- .window_business_days business days (Monday to Friday) after it, and the digits the service leaves
-- visible in the masked bank_account_number agree with the statement account's last digits. Among the
-- credits that can, a credit whose remittance text or end-to-end id names the disbursement is preferred,
-- then the closest date. One credit settles at most one disbursement and one disbursement takes at most one
-- credit: pairs are taken when each is the other's first choice, round after round (a tie — two equal
-- disbursements, two equal credits — is settled in a later round instead of being left over).

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

-- The run's --bank-window-days (bank_settings), 3 when unset.
CREATE OR REPLACE MACRO bank_window_days() AS (
  (SELECT COALESCE(MAX(window_business_days), 3) FROM bank_settings)
);

CREATE OR REPLACE VIEW bank_candidates AS
WITH d AS (
  SELECT disbursement_id, recipient_id, currency, amount, CAST(delivered_at AS DATE) AS delivered_on,
    account_digits_tail(bank_account_number) AS tail
  FROM disbursements
),
c AS (
  SELECT statement_id, entry_ref, account, account_tail, COALESCE(value_date, booking_date) AS value_on, amount, currency,
    lower(COALESCE(remittance, '') || ' ' || COALESCE(end_to_end_id, '')) AS refs
  FROM bank_transactions
  WHERE direction = 'credit'
)
SELECT
  d.disbursement_id, c.statement_id, c.entry_ref,
  contains(c.refs, lower(d.disbursement_id)) AS by_reference,
  business_days_after(d.delivered_on, c.value_on) AS days_after,
  (d.tail = '' OR right(COALESCE(c.account_tail, ''), length(d.tail)) = d.tail) AS account_agrees
FROM d
JOIN c ON c.currency = d.currency AND c.amount = d.amount
-- a day of slack before the delivery day: delivered_at is UTC, a bank values in its own time zone
WHERE c.value_on >= d.delivered_on - INTERVAL 1 DAY
  AND business_days_after(d.delivered_on, c.value_on) <= bank_window_days();

CREATE OR REPLACE VIEW bank_matches AS
-- Round by round: from the candidates still free (neither side taken in an earlier round), the pairs that
-- are each other's first choice are taken. Round 0 is every candidate, none taken; at least one pair is
-- taken per round while any is left (the best pair overall is first on both sides), at most 8 rounds.
WITH RECURSIVE rounds(round, disbursement_id, statement_id, entry_ref, by_reference, days_after, taken) AS (
  SELECT 0, disbursement_id, statement_id, entry_ref, by_reference, days_after, false
  FROM bank_candidates
  WHERE account_agrees
  UNION ALL
  SELECT round + 1, disbursement_id, statement_id, entry_ref, by_reference, days_after,
    row_number() OVER (PARTITION BY disbursement_id ORDER BY by_reference DESC, abs(days_after), statement_id, entry_ref) = 1
    AND row_number() OVER (PARTITION BY statement_id, entry_ref ORDER BY by_reference DESC, abs(days_after), disbursement_id) = 1
  FROM (
    SELECT *,
      bool_or(taken) OVER (PARTITION BY disbursement_id) AS d_taken,
      bool_or(taken) OVER (PARTITION BY statement_id, entry_ref) AS c_taken
    FROM rounds
  ) AS last
  WHERE NOT d_taken AND NOT c_taken AND round < 8
),
pairs AS (
  SELECT disbursement_id, statement_id, entry_ref, by_reference, days_after FROM rounds WHERE taken
)
SELECT
  p.disbursement_id, d.recipient_id, d.currency, d.amount, d.delivered_at,
  p.statement_id, p.entry_ref, t.account AS bank_account, COALESCE(t.value_date, t.booking_date) AS credited_on,
  p.days_after AS business_days_after_delivery, p.by_reference AS matched_by_reference,
  t.remittance, t.end_to_end_id, t.counterparty,
  to_major(d.amount, d.currency) AS amount_major
FROM pairs AS p
JOIN disbursements AS d ON d.disbursement_id = p.disbursement_id
JOIN bank_transactions AS t ON t.statement_id = p.statement_id AND t.entry_ref = p.entry_ref;

-- The disbursement ids a credit names in its remittance text or end-to-end id: the texts split into words
-- (letters, digits, _ and -), each word looked up among the disbursement ids (an equi-join, not a scan of
-- every id for every credit).
CREATE OR REPLACE VIEW bank_named AS
WITH words AS (
  SELECT DISTINCT statement_id, entry_ref,
    unnest(regexp_split_to_array(lower(COALESCE(remittance, '') || ' ' || COALESCE(end_to_end_id, '')), '[^a-z0-9_-]+')) AS word
  FROM bank_transactions
  WHERE direction = 'credit'
)
SELECT w.statement_id, w.entry_ref, min(d.disbursement_id) AS disbursement_id
FROM words AS w
JOIN disbursements AS d ON lower(d.disbursement_id) = w.word
GROUP BY w.statement_id, w.entry_ref;

-- Every credit with what became of it, for the checks and the Bank sheets: the disbursement it settled,
-- and the one it names (matched or not).
CREATE OR REPLACE VIEW bank_credits AS
SELECT
  t.statement_id, t.entry_ref, t.account, t.account_tail, COALESCE(t.value_date, t.booking_date) AS credited_on, t.amount, t.currency,
  t.remittance, t.end_to_end_id, t.counterparty, t.file_name,
  m.disbursement_id AS matched_disbursement_id,
  n.disbursement_id AS named_disbursement_id
FROM bank_transactions AS t
LEFT JOIN bank_matches AS m ON m.statement_id = t.statement_id AND m.entry_ref = t.entry_ref
LEFT JOIN bank_named AS n ON n.statement_id = t.statement_id AND n.entry_ref = t.entry_ref
WHERE t.direction = 'credit';

-- Each credit that settled nothing, with what it most likely is (one reason each; the bank_* checks
-- report them):
--   account_mismatch  names a disbursement with its currency and amount, in the window, but the account's
--                     visible digits disagree with the disbursement's bank_account_number
--   duplicate         names a disbursement another credit already settled, for the same amount
--   amount_differs    names an unsettled disbursement but for another amount (fees or FX deducted)
--   unexpected        from the provider (it names a disbursement, or comes from a counterparty whose
--                     credits settled disbursements) but matches none
--   NULL              other money on the account: not the provider's, not recon's business
CREATE OR REPLACE VIEW bank_unmatched_credits AS
WITH settled AS (
  SELECT disbursement_id FROM bank_matches
),
provider AS (
  SELECT DISTINCT lower(counterparty) AS name FROM bank_matches WHERE counterparty IS NOT NULL
),
mismatched AS (
  SELECT statement_id, entry_ref, min(disbursement_id) AS disbursement_id
  FROM bank_candidates
  WHERE NOT account_agrees AND by_reference AND disbursement_id NOT IN (SELECT disbursement_id FROM settled)
  GROUP BY statement_id, entry_ref
)
SELECT
  c.*,
  COALESCE(mm.disbursement_id, c.named_disbursement_id) AS disbursement_id,
  CASE
    WHEN mm.disbursement_id IS NOT NULL THEN 'account_mismatch'
    WHEN c.named_disbursement_id IN (SELECT disbursement_id FROM settled) AND d.amount = c.amount AND d.currency = c.currency THEN 'duplicate'
    WHEN c.named_disbursement_id IS NOT NULL AND c.named_disbursement_id NOT IN (SELECT disbursement_id FROM settled)
         AND (d.amount <> c.amount OR d.currency <> c.currency) THEN 'amount_differs'
    WHEN c.named_disbursement_id IS NOT NULL OR lower(c.counterparty) IN (SELECT name FROM provider) THEN 'unexpected'
  END AS reason
FROM bank_credits AS c
LEFT JOIN mismatched AS mm ON mm.statement_id = c.statement_id AND mm.entry_ref = c.entry_ref
LEFT JOIN disbursements AS d ON d.disbursement_id = c.named_disbursement_id
WHERE c.matched_disbursement_id IS NULL;

-- Per disbursement: settled by a credit, awaiting a statement (none yet covers its window on its
-- account), or unsettled (the statements cover the window and no credit settled it).
CREATE OR REPLACE VIEW bank_status AS
WITH coverage AS (
  SELECT account_tail, max(COALESCE(booking_date, value_date)) AS covered_until
  FROM bank_transactions
  GROUP BY account_tail
),
d AS (
  SELECT disbursement_id, recipient_id, currency, amount, delivered_at, bank_account_number,
    account_digits_tail(bank_account_number) AS tail
  FROM disbursements
),
covered AS (
  SELECT d.disbursement_id, max(cv.covered_until) AS covered_until
  FROM d JOIN coverage AS cv ON d.tail <> '' AND right(COALESCE(cv.account_tail, ''), length(d.tail)) = d.tail
  GROUP BY d.disbursement_id
)
SELECT
  d.disbursement_id, d.recipient_id, d.currency, d.amount, d.delivered_at, d.bank_account_number,
  m.statement_id, m.entry_ref, m.credited_on, m.matched_by_reference,
  c.covered_until,
  CASE
    WHEN m.disbursement_id IS NOT NULL THEN 'settled'
    WHEN c.covered_until IS NULL
      OR business_days_after(CAST(d.delivered_at AS DATE), c.covered_until) <= bank_window_days() THEN 'awaiting statement'
    ELSE 'unsettled'
  END AS bank_status
FROM d
LEFT JOIN bank_matches AS m ON m.disbursement_id = d.disbursement_id
LEFT JOIN covered AS c ON c.disbursement_id = d.disbursement_id;
