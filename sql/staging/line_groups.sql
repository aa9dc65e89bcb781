-- materialised: per check run (computed once when two or more checks read it, directly or through views built on it)
-- The API lines of each disbursement in groups of one kind, currency and (adjustments) entry type: their
-- count and sum, and a fingerprint of the group for pairing with settlement files. One hash aggregate
-- per line table, as a bare GROUP BY disbursement_id would be: what the checks ask of the lines per
-- disbursement (disbursement_totals, unlisted_currency, file_line_disagreements) reads these few rows
-- instead of every line again, and no line is joined to its disbursement. Sums are HUGEINT (schema 001).
-- Lines of every disbursement_id, stored or not: the readers join.
-- The fingerprint (file_line_disagreements says how it is used): how many lines can pair with nothing (a
-- NULL in the pairing key), and two sums of 64-bit hashes of what pairing compares — kind, reference
-- (payout reference, refund_id, adjustment reference), occurrence, amount, and an adjustment's entry
-- type — the same expressions as file_line_groups computes for a file's lines.
CREATE OR REPLACE VIEW line_groups AS
SELECT disbursement_id, 'payout' AS kind, CAST(NULL AS VARCHAR) AS entry_type, currency,
  COUNT(*) AS n, CAST(SUM(amount) AS HUGEINT) AS total,
  COUNT(*) FILTER (WHERE reference IS NULL OR occurrence IS NULL) AS unpaired,
  SUM(hash('payout', reference, occurrence, amount, CAST(NULL AS VARCHAR))) AS print1,
  SUM(hash(amount, occurrence, reference, 'payout', CAST(NULL AS VARCHAR), 'recon')) AS print2
FROM payouts
GROUP BY disbursement_id, currency
UNION ALL
SELECT disbursement_id, 'refund', NULL, currency, COUNT(*), CAST(SUM(amount) AS HUGEINT),
  COUNT(*) FILTER (WHERE refund_id IS NULL OR occurrence IS NULL),
  SUM(hash('refund', refund_id, occurrence, amount, CAST(NULL AS VARCHAR))),
  SUM(hash(amount, occurrence, refund_id, 'refund', CAST(NULL AS VARCHAR), 'recon'))
FROM refunds
GROUP BY disbursement_id, currency
UNION ALL
SELECT disbursement_id, 'adjustment', entry_type, currency, COUNT(*), CAST(SUM(amount) AS HUGEINT),
  COUNT(*) FILTER (WHERE reference IS NULL OR occurrence IS NULL),
  SUM(hash('adjustment', reference, occurrence, amount, entry_type)),
  SUM(hash(amount, occurrence, reference, 'adjustment', entry_type, 'recon'))
FROM adjustments
GROUP BY disbursement_id, entry_type, currency;
