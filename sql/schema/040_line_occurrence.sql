-- the n-th time a reference appears among a disbursement's lines of one kind (payouts by reference,
-- refunds by refund_id, adjustments by reference), and among one file's lines of one kind, counted in line
-- order. file_line_disagreements pairs the n-th file line of a reference with its n-th API line; numbered
-- once when the lines are written (src/store/writer.ts) instead of by two window sorts over every line at
-- every check run. Existing rows are numbered here.
ALTER TABLE payouts ADD COLUMN occurrence INTEGER;
ALTER TABLE refunds ADD COLUMN occurrence INTEGER;
ALTER TABLE adjustments ADD COLUMN occurrence INTEGER;
ALTER TABLE file_lines ADD COLUMN occurrence INTEGER;
UPDATE payouts SET occurrence = o.n
FROM (SELECT rowid AS rid, row_number() OVER (PARTITION BY disbursement_id, reference ORDER BY line_no) AS n FROM payouts) AS o
WHERE payouts.rowid = o.rid;
UPDATE refunds SET occurrence = o.n
FROM (SELECT rowid AS rid, row_number() OVER (PARTITION BY disbursement_id, refund_id ORDER BY line_no) AS n FROM refunds) AS o
WHERE refunds.rowid = o.rid;
UPDATE adjustments SET occurrence = o.n
FROM (SELECT rowid AS rid, row_number() OVER (PARTITION BY disbursement_id, reference ORDER BY line_no) AS n FROM adjustments) AS o
WHERE adjustments.rowid = o.rid;
UPDATE file_lines SET occurrence = o.n
FROM (SELECT rowid AS rid, row_number() OVER (PARTITION BY disbursement_id, file_no, kind, reference ORDER BY line_no) AS n FROM file_lines) AS o
WHERE file_lines.rowid = o.rid;
