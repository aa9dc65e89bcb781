-- check: gross_variance
-- severity: error
-- title: File and API lines differ (gross)
-- meaning: Lines in the settlement file differ from the API lines in both directions, even where the
--   net agrees.
-- next step: Compare the listed lines with the file; ask the provider to correct the file or the
--   API.
-- scope: disbursement
--
-- Σ |file amount − API amount| over the lines a parsed file shares with the API (paired by the
-- file_line_disagreements view: same disbursement, kind and reference, n-th occurrence with n-th).
-- A +1000 / −1000 pair nets to 0 in the total but is two wrong lines: this check makes it visible.
-- Unmatched lines are file_vs_api's business. One finding per disbursement, over all its files.
WITH matched AS (
  -- paired lines that agree add nothing to either sum, so the disagreements are enough
  SELECT
    disbursement_id,
    SUM(CASE WHEN file_amount <> api_amount THEN 1 ELSE 0 END) AS lines_differing,
    CAST(SUM(ABS(file_amount - api_amount)) AS HUGEINT) AS gross,
    CAST(SUM(file_amount - api_amount) AS HUGEINT) AS net
  FROM file_line_disagreements
  WHERE file_line_no IS NOT NULL AND api_line_no IS NOT NULL
  GROUP BY disbursement_id
),
-- the parsed files counted only for the disbursements above (#28: every disbursement's were counted)
parsed AS (
  SELECT disbursement_id, COUNT(*) AS files
  FROM disbursement_files
  WHERE parse_status = 'parsed' AND disbursement_id IN (SELECT disbursement_id FROM matched WHERE gross > 0)
  GROUP BY disbursement_id
)
SELECT
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
    || ' across ' || CAST(pf.files AS VARCHAR) || ' parsed file(s)' AS detail
FROM matched AS m
JOIN parsed AS pf ON pf.disbursement_id = m.disbursement_id
JOIN disbursements AS d ON d.disbursement_id = m.disbursement_id
WHERE m.gross > 0
