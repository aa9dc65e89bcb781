-- What recon doctor reports of the export's role: who it is, whether it may use and create in the schema
-- (or create the schema when it is absent), and whether it has more than it needs.
SELECT current_user AS role_name,
  current_setting('server_version') AS server_version,
  (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
  EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS schema_present,
  CASE WHEN EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)
    THEN has_schema_privilege(current_user, $1, 'USAGE') AND has_schema_privilege(current_user, $1, 'CREATE') END AS schema_rights,
  has_database_privilege(current_user, current_database(), 'CREATE') AS database_create,
  (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) AS ssl
