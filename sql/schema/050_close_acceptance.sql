-- a close is provisional while money is unaccounted for (not arrived, short or over, on another
-- account, in currency suspense) unless a person accepts it by name with a note (recon close
-- --accept-unaccounted --by NAME --note TEXT). What was accepted, by whom and why is kept with the close.
ALTER TABLE closes ADD COLUMN accepted_by VARCHAR;     -- who accepted the unaccounted money; NULL: nobody
ALTER TABLE closes ADD COLUMN accepted_note VARCHAR;   -- their note
ALTER TABLE closes ADD COLUMN accepted VARCHAR;        -- what they accepted, in the workbook's words
