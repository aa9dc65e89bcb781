-- finding_stake(check_id, currency, expected, actual, difference) → the money a finding puts at stake, in
-- its own currency (integer subunits, never negative): the difference where the finding is about one
-- (a total that disagrees, a credit short); the whole amount where the finding puts all of it in question
-- and has no difference, or a difference of 0 (a credit on another account, a line in another currency,
-- an adjustment of an unknown type); NULL for a finding without a currency (a count, a missing file) or
-- without any amount. Ordering and totals read it (finding_groups, src/store/read/findings.ts).
CREATE OR REPLACE MACRO finding_stake(chk, ccy, exp, act, diff) AS
  CASE
    WHEN ccy IS NULL THEN NULL
    WHEN chk = 'bank_account_mismatch' THEN abs(CAST(COALESCE(act, exp) AS HUGEINT))
    WHEN diff IS NOT NULL AND diff <> 0 THEN abs(CAST(diff AS HUGEINT))
    WHEN chk IN ('currency_mismatch', 'unknown_entry_type') THEN abs(CAST(COALESCE(act, exp) AS HUGEINT))
    WHEN diff IS NOT NULL THEN CAST(0 AS HUGEINT)
    ELSE NULL
  END;
