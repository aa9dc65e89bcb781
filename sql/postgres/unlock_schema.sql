SELECT pg_advisory_unlock(1919119470, hashtext($1))
