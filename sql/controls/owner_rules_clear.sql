-- The default owners before the rules a command was given replace them.
DELETE FROM owner_rules
