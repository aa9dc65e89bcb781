-- The seed sources that add a disbursement tonight beyond those written since or gone: a check that reads
-- none of them shares its scope (and the copy of the store built for it) with every other such check.
SELECT DISTINCT source FROM scope_seed
WHERE source NOT IN ('disbursements', 'gone')
  AND disbursement_id NOT IN (SELECT disbursement_id FROM scope_seed WHERE source IN ('disbursements', 'gone'))
ORDER BY source
