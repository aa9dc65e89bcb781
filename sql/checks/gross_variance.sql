-- Σ |file amount − API amount| over the lines a parsed file shares with the API (same disbursement,
-- kind and reference; the n-th occurrence of a reference in a file is matched with the n-th in the API).
-- A +1000 / −1000 pair nets to 0 in the total but is two wrong lines: this check makes it visible.
-- Unmatched lines are file_vs_api's business. One finding per disbursement, over all its files.
WITH file_side AS (
  SELECT
    fl.disbursement_id, fl.file_no, fl.kind, fl.reference, fl.amount,
    ROW_NUMBER() OVER (
      PARTITION BY fl.disbursement_id, fl.file_no, fl.kind, fl.reference ORDER BY fl.line_no
    ) AS occurrence
  FROM file_lines AS fl
  JOIN disbursement_files AS df
    ON df.disbursement_id = fl.disbursement_id AND df.file_no = fl.file_no
  WHERE df.parse_status = 'parsed'
),
api_side AS (
  -- Only disbursements with a parsed file can match; the occurrence is numbered within a disbursement,
  -- so leaving the others out changes no number (and spares a sort of every line in the store).
  SELECT
    disbursement_id, kind, reference, amount,
    ROW_NUMBER() OVER (PARTITION BY disbursement_id, kind, reference ORDER BY line_no) AS occurrence
  FROM payment_lines
  WHERE disbursement_id IN (SELECT disbursement_id FROM disbursement_files WHERE parse_status = 'parsed')
),
matched AS (
  SELECT
    f.disbursement_id,
    COUNT(DISTINCT f.file_no) AS files,
    SUM(CASE WHEN f.amount <> a.amount THEN 1 ELSE 0 END) AS lines_differing,
    CAST(SUM(ABS(f.amount - a.amount)) AS HUGEINT) AS gross,
    CAST(SUM(f.amount - a.amount) AS HUGEINT) AS net
  FROM file_side AS f
  JOIN api_side AS a
    ON a.disbursement_id = f.disbursement_id
   AND a.kind = f.kind
   AND a.reference = f.reference
   AND a.occurrence = f.occurrence
  GROUP BY f.disbursement_id
)
SELECT
  'gross_variance' AS check_id,
  'error' AS severity,
  d.disbursement_id,
  d.recipient_id,
  'file lines' AS subject,
  d.currency,
  CAST(0 AS BIGINT) AS expected,
  CAST(m.gross AS BIGINT) AS actual,
  CAST(m.gross AS BIGINT) AS difference,
  CAST(m.lines_differing AS VARCHAR) || ' file line(s) differ from the API lines by '
    || format_amount(m.gross, d.currency) || ' ' || COALESCE(d.currency, '')
    || ' in total (gross, Σ|file − API|); net difference ' || format_amount(m.net, d.currency)
    || ' across ' || CAST(m.files AS VARCHAR) || ' parsed file(s)' AS detail
FROM matched AS m
JOIN disbursements AS d ON d.disbursement_id = m.disbursement_id
WHERE m.gross > 0
