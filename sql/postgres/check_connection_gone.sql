-- PostgreSQL 14 and later also notice a vanished client while a statement runs (a COPY waiting for rows).
SET client_connection_check_interval = '10s'
