-- One export at a time per schema (two stores pointed at one schema would overwrite each other's months):
-- a session lock, released when the export ends or its connection goes. The first key is recon's.
SELECT pg_advisory_lock(1919119470, hashtext($1))
