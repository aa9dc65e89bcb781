-- Every connection of an export: its schema first, and a connection that vanished (a cut network, a killed
-- recon) noticed by the server within about a minute, so its open transaction is rolled back and its lock
-- released for the next export instead of after the operating system's two hours. A lock held for a
-- minute (another export of this schema, someone's ALTER TABLE) fails the export instead of hanging it.
SET search_path TO {{schema}};
SET tcp_keepalives_idle = 30;
SET tcp_keepalives_interval = 10;
SET tcp_keepalives_count = 3;
SET idle_in_transaction_session_timeout = '10min';
SET lock_timeout = '60s'
