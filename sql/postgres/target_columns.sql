-- The columns of the schema's tables (partitions left out), in order, whether each table is partitioned
-- and whether it has a primary key (a partition of one without gets REPLICA IDENTITY FULL, so a
-- publication for logical replication can carry the export's deletes).
SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, NULL) AS data_type,
  c.relkind = 'p' AS partitioned,
  EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conrelid = c.oid AND k.contype = 'p') AS keyed
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition
ORDER BY c.relname, a.attnum
