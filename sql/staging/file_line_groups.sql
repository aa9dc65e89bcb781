-- materialised: per check run (computed once when two or more checks read it, directly or through views built on it)
-- Each settlement file's lines (file_lines of any parse status) summed up: how many (file_vs_api's footer
-- count), and the fingerprint file_line_disagreements compares with the file's disbursement's API lines
-- (line_groups, the same expressions): how many lines can pair with nothing (a NULL in kind, reference
-- or occurrence), and two sums of 64-bit hashes of kind, reference, occurrence, amount and, for an
-- adjustment, its entry type (a payout's or refund's entry type is not compared, so not hashed). One
-- hash aggregate over the file lines.
CREATE OR REPLACE VIEW file_line_groups AS
SELECT
  disbursement_id,
  file_no,
  COUNT(*) AS n,
  COUNT(*) FILTER (WHERE kind IS NULL OR reference IS NULL OR occurrence IS NULL) AS unpaired,
  SUM(hash(kind, reference, occurrence, amount, CASE WHEN kind = 'adjustment' THEN entry_type END)) AS print1,
  SUM(hash(amount, occurrence, reference, kind, CASE WHEN kind = 'adjustment' THEN entry_type END, 'recon')) AS print2
FROM file_lines
GROUP BY disbursement_id, file_no;
