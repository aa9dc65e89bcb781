-- The open findings a night re-checked (their checks' scopes cover them): the others are carried forward.
CREATE OR REPLACE TEMP TABLE scope_decided (finding_key VARCHAR NOT NULL)
