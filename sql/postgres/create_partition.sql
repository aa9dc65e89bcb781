-- A month's partition, made apart and attached: ATTACH takes only a SHARE UPDATE EXCLUSIVE lock on the
-- table, so readers and their long queries are never waited for (CREATE TABLE … PARTITION OF would lock
-- them out). The table is empty, so attaching it checks nothing; the table's indexes are made on it.
CREATE TABLE IF NOT EXISTS {{partition}} (LIKE {{table}} INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
ALTER TABLE {{table}} ATTACH PARTITION {{partition}} FOR VALUES IN ({{month}})
