-- materialised: per check run (computed once when two or more checks read it, directly or through views built on it)
-- Each credit that settled nothing, with what it most likely is (one reason each; the bank_* checks
-- report them):
--   account_mismatch  names a disbursement with its currency and amount, in the window, but the account's
--                     visible digits disagree with the disbursement's bank_account_number
--   duplicate         names a disbursement another credit already settled, for the same amount
--   amount_differs    names an unsettled disbursement but for another amount (fees beyond the tolerance, or FX)
--   unexpected        from the provider (it names a disbursement, or comes from a counterparty whose
--                     credits settled disbursements) but matches none
--   NULL              other money on the account: not the provider's, not recon's business
-- The matches are read once (MATERIALIZED): the credits, what is settled and the provider's names come
-- from the same rows.
CREATE OR REPLACE VIEW bank_unmatched_credits AS
WITH matches AS MATERIALIZED (
  SELECT disbursement_id, statement_id, entry_ref, counterparty FROM bank_matches
),
settled AS (
  SELECT DISTINCT disbursement_id FROM matches
),
provider AS (
  SELECT DISTINCT lower(counterparty) AS name FROM matches WHERE counterparty IS NOT NULL
),
credits AS (
  SELECT
    t.statement_id, t.entry_ref, t.account, t.account_tail, COALESCE(t.value_date, t.booking_date) AS credited_on, t.amount, t.currency,
    t.remittance, t.end_to_end_id, t.counterparty, t.file_name,
    CAST(NULL AS VARCHAR) AS matched_disbursement_id, CAST(0 AS BIGINT) AS settled_count,
    n.disbursement_id AS named_disbursement_id
  FROM bank_transactions AS t
  LEFT JOIN bank_named AS n ON n.statement_id = t.statement_id AND n.entry_ref = t.entry_ref
  WHERE t.direction = 'credit'
    AND NOT EXISTS (SELECT 1 FROM matches AS m WHERE m.statement_id = t.statement_id AND m.entry_ref = t.entry_ref)
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
  END AS reason,
  to_major(c.amount, c.currency) AS amount_major
FROM credits AS c
LEFT JOIN mismatched AS mm ON mm.statement_id = c.statement_id AND mm.entry_ref = c.entry_ref
LEFT JOIN disbursements AS d ON d.disbursement_id = c.named_disbursement_id;
