-- materialised: per check run (computed once when two or more checks read it, directly or through views built on it)
-- Where parsed settlement files and the API disagree, line by line: a file line whose API line differs
-- (amount, or an adjustment's entry type), a file line with no API line, an API line the file lacks.
-- Lines are paired by (disbursement, file, kind, reference, n-th
-- occurrence), the n-th time a reference appears in a file against its n-th time in the API (payouts by
-- reference, refunds by refund_id, adjustments by reference; api_lines says which is which). The
-- occurrence is numbered when the lines are written (migration 040, src/store/writer.ts), so this is one
-- hash join (numbering every line here by two window sorts was most of a check run). The join is on
-- two 64-bit hashes of that key (a line whose kind, reference or occurrence is NULL pairs with nothing, as
-- under `=`), carrying only each line's rowid, amount and entry type: with the strings themselves in its
-- hash table the join outgrew the checks' memory limit and spilled (1M lines: 4.4–7 s against 0.9–1.8 s on
-- a busy machine). Two lines pair only when both hashes agree (a chance of 2^-128 for two different keys);
-- the rare disagreements then take their columns from their own rows. A file
-- is expected to hold every line of its disbursement, so each API line is offered to each parsed file.
-- file_line_no NULL: an API line missing from the file; api_line_no NULL: a file line with no API line.
-- Lines that agree are left out (a disagreement is rare; every line agreeing is the normal case).
-- Only files that can disagree are paired line by line (pairing every line of every file was half of
-- a check run, while a night's files nearly all agree). A parsed file whose fingerprint (file_line_groups)
-- equals its disbursement's API lines' (line_groups, summed) — as many lines, none that pairs with nothing,
-- the same two sums of hashes of each line's key and compared values — holds exactly its API lines: the
-- occurrence makes each key unique on its side (migration 040: numbered in one pass over a disbursement's
-- lines and over a file's), so each of its lines pairs with one API line that agrees. Two different sets
-- of lines agree on count and both sums with a chance of about 2^-128, as two keys on both join hashes.
-- file_vs_api reports each row, gross_variance sums the amount differences of the paired ones; inside
-- a check run the view is computed once for both (src/checks/runner.ts, shared views).
CREATE OR REPLACE VIEW file_line_disagreements AS
WITH parsed AS (
  SELECT disbursement_id, file_no FROM disbursement_files WHERE parse_status = 'parsed'
),
api_print AS (
  SELECT disbursement_id, SUM(n) AS n, SUM(unpaired) AS unpaired, SUM(print1) AS print1, SUM(print2) AS print2
  FROM line_groups
  GROUP BY disbursement_id
),
-- the parsed files that can disagree with the API: every one whose fingerprint is not its API lines'
to_pair AS MATERIALIZED (
  SELECT p.disbursement_id, p.file_no
  FROM parsed AS p
  LEFT JOIN file_line_groups AS f ON f.disbursement_id = p.disbursement_id AND f.file_no = p.file_no
  LEFT JOIN api_print AS a ON a.disbursement_id = p.disbursement_id
  WHERE f.n IS NULL OR a.n IS NULL OR f.n <> a.n OR f.unpaired <> 0 OR a.unpaired <> 0
     OR f.print1 <> a.print1 OR f.print2 <> a.print2
),
file_side AS (
  SELECT fl.rowid AS rid, fl.kind, fl.amount, fl.entry_type,
    CASE WHEN fl.kind IS NOT NULL AND fl.reference IS NOT NULL AND fl.occurrence IS NOT NULL
      THEN hash(fl.disbursement_id, fl.file_no, fl.kind, fl.reference, fl.occurrence) END AS h1,
    hash(fl.reference, fl.occurrence, fl.kind, fl.file_no, fl.disbursement_id, 'recon') AS h2
  FROM file_lines AS fl
  JOIN to_pair AS p ON p.disbursement_id = fl.disbursement_id AND p.file_no = fl.file_no
),
-- every API line (api_lines, by table and rowid) offered to each of those files of its disbursement
api_rows AS (
  SELECT 'payout' AS kind, rowid AS rid, disbursement_id, reference, occurrence, amount, CAST(NULL AS VARCHAR) AS entry_type FROM payouts
  UNION ALL SELECT 'refund', rowid, disbursement_id, refund_id, occurrence, amount, NULL FROM refunds
  UNION ALL SELECT 'adjustment', rowid, disbursement_id, reference, occurrence, amount, entry_type FROM adjustments
),
api_side AS (
  SELECT a.rid, a.kind, p.file_no, a.amount, a.entry_type,
    CASE WHEN a.reference IS NOT NULL AND a.occurrence IS NOT NULL
      THEN hash(a.disbursement_id, p.file_no, a.kind, a.reference, a.occurrence) END AS h1,
    hash(a.reference, a.occurrence, a.kind, p.file_no, a.disbursement_id, 'recon') AS h2
  FROM api_rows AS a
  JOIN to_pair AS p ON p.disbursement_id = a.disbursement_id
),
disagreeing AS MATERIALIZED (
  SELECT fs.rid AS file_rid, a.rid AS api_rid, a.kind AS api_kind, a.file_no AS api_file_no
  FROM file_side AS fs
  FULL OUTER JOIN api_side AS a ON a.h1 = fs.h1 AND a.h2 = fs.h2
  WHERE a.rid IS NULL
     OR fs.rid IS NULL
     OR fs.amount IS DISTINCT FROM a.amount
     OR (COALESCE(fs.kind, a.kind) = 'adjustment' AND fs.entry_type IS DISTINCT FROM a.entry_type)
),
-- the rows of the disagreeing lines (a semi-join: the few rowids against each table)
file_line AS (
  SELECT rowid AS rid, disbursement_id, file_no, kind, reference, currency, line_no, amount, entry_type
  FROM file_lines WHERE rowid IN (SELECT file_rid FROM disagreeing)
),
api_line AS (
  SELECT 'payout' AS kind, rowid AS rid, disbursement_id, line_no, reference, currency, amount, CAST(NULL AS VARCHAR) AS entry_type
  FROM payouts WHERE rowid IN (SELECT api_rid FROM disagreeing WHERE api_kind = 'payout')
  UNION ALL SELECT 'refund', rowid, disbursement_id, line_no, refund_id, currency, amount, NULL
  FROM refunds WHERE rowid IN (SELECT api_rid FROM disagreeing WHERE api_kind = 'refund')
  UNION ALL SELECT 'adjustment', rowid, disbursement_id, line_no, reference, currency, amount, entry_type
  FROM adjustments WHERE rowid IN (SELECT api_rid FROM disagreeing WHERE api_kind = 'adjustment')
)
SELECT
  COALESCE(fs.disbursement_id, a.disbursement_id) AS disbursement_id,
  COALESCE(fs.file_no, d.api_file_no) AS file_no,
  COALESCE(fs.kind, a.kind) AS kind,
  COALESCE(fs.reference, a.reference) AS reference,
  COALESCE(fs.currency, a.currency) AS currency,
  fs.line_no AS file_line_no, fs.amount AS file_amount, fs.entry_type AS file_entry_type, fs.currency AS file_currency,
  a.line_no AS api_line_no, a.amount AS api_amount, a.entry_type AS api_entry_type, a.currency AS api_currency
FROM disagreeing AS d
LEFT JOIN file_line AS fs ON fs.rid = d.file_rid
LEFT JOIN api_line AS a ON a.kind = d.api_kind AND a.rid = d.api_rid;
