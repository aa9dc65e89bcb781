-- A cause's money counted once (finding_groups.cause_stake, on the cause's root) and whether it needs a
-- person, in the finding groups and in open_exceptions, so that the money at stake per currency is one SUM
-- in PostgreSQL as in recon sql: SELECT currency, sum(cause_stake) FROM open_exceptions WHERE needs_person
-- GROUP BY currency.
ALTER TABLE finding_groups ADD COLUMN needs_person boolean;
ALTER TABLE finding_groups ADD COLUMN cause_stake numeric;
ALTER TABLE finding_groups ADD COLUMN cause_stake_major numeric;
ALTER TABLE open_exceptions ADD COLUMN cause text;
ALTER TABLE open_exceptions ADD COLUMN is_root boolean;
ALTER TABLE open_exceptions ADD COLUMN needs_person boolean;
ALTER TABLE open_exceptions ADD COLUMN cause_stake numeric;
ALTER TABLE open_exceptions ADD COLUMN cause_stake_major numeric;
