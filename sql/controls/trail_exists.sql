-- Whether the store has its audit trail ($1 the migration that made it): the table, and the migration's record.
SELECT
  EXISTS (SELECT 1 FROM duckdb_tables() WHERE table_name = 'audit_trail' AND schema_name = 'main') AS has_table,
  EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1) AS migrated
