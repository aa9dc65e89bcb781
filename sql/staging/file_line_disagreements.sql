-- materialised: per check run (computed once when two or more checks read it, directly or through views built on it)
-- Where parsed settlement files and the API disagree, line by line: a file line whose API line differs
-- (amount, or an adjustment's entry type), a file line with no API line, an API line the file lacks.
-- Lines are paired by (disbursement, file, kind, reference, n-th
-- occurrence), the n-th time a reference appears in a file against its n-th time in the API (payouts by
-- reference, refunds by refund_id, adjustments by reference; api_lines says which is which). The
-- occurrence is numbered when the lines are written (migration 040, src/store/writer.ts), so this is one
-- hash join (#28: numbering every line here by two window sorts was most of a check run). A file
-- is expected to hold every line of its disbursement, so each API line is offered to each parsed file.
-- file_line_no NULL: an API line missing from the file; api_line_no NULL: a file line with no API line.
-- Lines that agree are left out (a disagreement is rare; every line agreeing is the normal case).
-- file_vs_api reports each row, gross_variance sums the amount differences of the paired ones; inside
-- a check run the view is computed once for both (src/checks/runner.ts, shared views).
CREATE OR REPLACE VIEW file_line_disagreements AS
WITH parsed AS (
  SELECT disbursement_id, file_no FROM disbursement_files WHERE parse_status = 'parsed'
),
file_side AS (
  SELECT fl.disbursement_id, fl.file_no, fl.line_no, fl.kind, fl.entry_type, fl.reference, fl.currency, fl.amount, fl.occurrence
  FROM file_lines AS fl
  JOIN parsed AS p ON p.disbursement_id = fl.disbursement_id AND p.file_no = fl.file_no
),
-- each API line offered to each parsed file of its disbursement
api_side AS (
  SELECT p.file_no, a.disbursement_id, a.line_no, a.kind, a.entry_type, a.reference, a.currency, a.amount, a.occurrence
  FROM api_lines AS a
  JOIN parsed AS p ON p.disbursement_id = a.disbursement_id
)
SELECT
  COALESCE(fs.disbursement_id, a.disbursement_id) AS disbursement_id,
  COALESCE(fs.file_no, a.file_no) AS file_no,
  COALESCE(fs.kind, a.kind) AS kind,
  COALESCE(fs.reference, a.reference) AS reference,
  COALESCE(fs.currency, a.currency) AS currency,
  fs.line_no AS file_line_no, fs.amount AS file_amount, fs.entry_type AS file_entry_type, fs.currency AS file_currency,
  a.line_no AS api_line_no, a.amount AS api_amount, a.entry_type AS api_entry_type, a.currency AS api_currency
FROM file_side AS fs
FULL OUTER JOIN api_side AS a
  ON a.disbursement_id = fs.disbursement_id
 AND a.file_no = fs.file_no
 AND a.kind = fs.kind
 AND a.reference = fs.reference
 AND a.occurrence = fs.occurrence
WHERE a.line_no IS NULL
   OR fs.line_no IS NULL
   OR fs.amount IS DISTINCT FROM a.amount
   OR (COALESCE(fs.kind, a.kind) = 'adjustment' AND fs.entry_type IS DISTINCT FROM a.entry_type);
