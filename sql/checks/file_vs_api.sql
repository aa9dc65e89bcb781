-- check: file_vs_api
-- severity: error or warning
-- title: Settlement file ≠ API
-- meaning: The settlement file and the API disagree on a line, a footer, or the file could not be
--   read.
-- next step: Check the named file line against the API line; for a file that could not be read, ask
--   for it again.
-- scope: disbursement
--
-- Each settlement file against the API, per file (a recipient may get several layouts of the same
-- disbursement, each must agree on its own).
-- Parsed files (parse_status 'parsed'):
--   * a file line with no API line, an API line missing from the file, a line whose amount (or, for
--     adjustments, entry type) differs: one finding each, subject = the reference. expected is the API
--     side, actual the file side, a missing side counts as 0. Lines are paired by the
--     file_line_disagreements view: (kind, reference, n-th occurrence). A file is expected to hold every line of its
--     disbursement (interface, Disbursement file; docs/sandbox.md).
--     Skipped for incomplete disbursements, whose API lines are partial. A file line with no API line in
--     a disbursement with quarantined lines of that kind is likely the quarantined one: a warning.
--   * footer count against the file's detail lines and against Σ number_of_*; footer total against the
--     disbursement amount (when the layout has a footer).
-- Other parse statuses, one finding per file:
--   unrecognised  warning: no known layout; kept but not compared (add a layout)
--   unparseable   error: a known layout whose content could not be read, so the file may disagree with
--                 the API in ways nobody has seen
--   too_large     warning: over recon's own size limit, not a fault in the data (raise the limit)
--   download_failed warning: the link failed after retries; nothing says the data is wrong, and the
--                 finding stays open until a later run downloads the file
WITH files AS (
  SELECT
    df.disbursement_id,
    df.file_no,
    COALESCE(df.name, 'file ' || CAST(df.file_no AS VARCHAR)) AS file_label,
    df.layout,
    df.parse_status,
    df.parse_error,
    df.size_bytes,
    df.footer_count,
    df.footer_total,
    d.recipient_id,
    d.currency,
    d.amount,
    d.sync_status,
    COALESCE(d.number_of_payments, 0) + COALESCE(d.number_of_refunds, 0)
      + COALESCE(d.number_of_adjustments, 0) AS stated_lines
  FROM disbursement_files AS df
  JOIN disbursements AS d ON d.disbursement_id = df.disbursement_id
  -- an archived disbursement's file lines and API lines are not in the store: its findings stay as they were
  WHERE df.disbursement_id NOT IN (SELECT disbursement_id FROM archived_disbursements)
),
pairs AS (
  SELECT * FROM file_line_disagreements
),
quarantined_kinds AS (
  SELECT DISTINCT disbursement_id, resource
  FROM current_quarantine
  WHERE in_store
),
line_findings AS (
  SELECT
    p.file_no,
    f.file_label,
    CASE WHEN p.api_line_no IS NULL AND qk.resource IS NOT NULL THEN 'warning' ELSE 'error' END AS severity,
    p.disbursement_id,
    COALESCE(p.reference, COALESCE(p.kind, 'line') || ' at file line ' || CAST(p.file_line_no AS VARCHAR)) AS subject,
    p.currency,
    CAST(COALESCE(p.api_amount, 0) AS BIGINT) AS expected,
    CAST(COALESCE(p.file_amount, 0) AS BIGINT) AS actual,
    CAST(COALESCE(p.file_amount, 0) - COALESCE(p.api_amount, 0) AS BIGINT) AS difference,
    CASE
      WHEN p.api_line_no IS NULL THEN
        COALESCE(p.kind, 'line of unknown kind') || ' ' || COALESCE(p.reference, '(no reference)')
        || ' (file ' || f.file_label || ' line ' || CAST(p.file_line_no AS VARCHAR) || ', '
        || format_amount(p.file_amount, p.file_currency) || ' ' || COALESCE(p.file_currency, '')
        || ') has no matching ' || COALESCE(p.kind, 'line') || ' in the API'
        || CASE WHEN qk.resource IS NOT NULL
             THEN '; the disbursement has quarantined ' || qk.resource || ' record(s), probably this one'
             ELSE '' END
      WHEN p.file_line_no IS NULL THEN
        p.kind || ' ' || COALESCE(p.reference, '(no reference)') || ' (API line '
        || CAST(p.api_line_no AS VARCHAR) || ', ' || format_amount(p.api_amount, p.api_currency) || ' '
        || COALESCE(p.api_currency, '') || ') is missing from file ' || f.file_label
      ELSE
        p.kind || ' ' || p.reference || ': file ' || f.file_label || ' line ' || CAST(p.file_line_no AS VARCHAR)
        || ' says ' || format_amount(p.file_amount, p.file_currency) || ' ' || COALESCE(p.file_currency, '')
        || COALESCE(' ' || p.file_entry_type, '')
        || ', API line ' || CAST(p.api_line_no AS VARCHAR) || ' says '
        || format_amount(p.api_amount, p.api_currency) || ' ' || COALESCE(p.api_currency, '')
        || COALESCE(' ' || p.api_entry_type, '')
    END AS detail
  FROM pairs AS p
  JOIN files AS f ON f.disbursement_id = p.disbursement_id AND f.file_no = p.file_no
  LEFT JOIN quarantined_kinds AS qk
    ON qk.disbursement_id = p.disbursement_id AND qk.resource = p.kind AND p.api_line_no IS NULL
  WHERE f.sync_status <> 'incomplete'
    AND (p.api_line_no IS NULL
     OR p.file_line_no IS NULL
     OR p.file_amount IS DISTINCT FROM p.api_amount
     OR (p.kind = 'adjustment' AND p.file_entry_type IS DISTINCT FROM p.api_entry_type))
),
-- At most 1,000 line findings per file (a file that disagrees everywhere would otherwise give a finding
-- per line, millions for a large file); the rest are one summary finding with their count and, when they
-- share one currency, their gross difference.
ranked_line_findings AS (
  SELECT lf.*, ROW_NUMBER() OVER (PARTITION BY lf.disbursement_id, lf.file_no ORDER BY lf.subject, lf.expected, lf.actual, lf.detail) AS rn
  FROM line_findings AS lf
),
capped_line_findings AS (
  SELECT severity, disbursement_id, subject, currency, expected, actual, difference, detail
  FROM ranked_line_findings
  WHERE rn <= 1000
  UNION ALL
  SELECT
    'error', disbursement_id, ANY_VALUE(file_label) || ': line differences beyond the first 1000',
    CASE WHEN COUNT(DISTINCT currency) = 1 THEN ANY_VALUE(currency) END,
    CAST(NULL AS BIGINT), CAST(NULL AS BIGINT),
    CASE WHEN COUNT(DISTINCT currency) = 1 THEN CAST(SUM(ABS(difference)) AS BIGINT) END,
    'file ' || ANY_VALUE(file_label) || ' has ' || CAST(COUNT(*) AS VARCHAR)
      || ' more line differences with the API than the 1000 listed'
      || CASE WHEN COUNT(DISTINCT currency) = 1
           THEN ', ' || format_amount(SUM(ABS(difference)), ANY_VALUE(currency)) || ' ' || ANY_VALUE(currency) || ' gross'
           ELSE ' (in several currencies)' END
  FROM ranked_line_findings
  WHERE rn > 1000
  GROUP BY disbursement_id, file_no
),
-- each file's detail lines, counted (file_line_groups: one aggregate over the file lines, shared with the pairing)
detail_lines AS (
  SELECT disbursement_id, file_no, n
  FROM file_line_groups
),
footer_findings AS (
  SELECT
    'error' AS severity, f.disbursement_id, f.file_label || ' footer count' AS subject,
    CAST(NULL AS VARCHAR) AS currency,
    CAST(COALESCE(dl.n, 0) AS BIGINT) AS expected, f.footer_count AS actual,
    CAST(f.footer_count - COALESCE(dl.n, 0) AS BIGINT) AS difference,
    'file ' || f.file_label || ' footer states ' || CAST(f.footer_count AS VARCHAR) || ' records but it has '
      || CAST(COALESCE(dl.n, 0) AS VARCHAR) || ' detail lines' AS detail
  FROM files AS f
  LEFT JOIN detail_lines AS dl ON dl.disbursement_id = f.disbursement_id AND dl.file_no = f.file_no
  WHERE f.parse_status = 'parsed' AND f.footer_count IS NOT NULL AND f.footer_count <> COALESCE(dl.n, 0)
  UNION ALL
  SELECT
    'error', f.disbursement_id, f.file_label || ' footer count vs disbursement',
    CAST(NULL AS VARCHAR),
    CAST(f.stated_lines AS BIGINT), f.footer_count, CAST(f.footer_count - f.stated_lines AS BIGINT),
    'file ' || f.file_label || ' footer states ' || CAST(f.footer_count AS VARCHAR)
      || ' records but the disbursement states ' || CAST(f.stated_lines AS VARCHAR)
      || ' (number_of_payments + number_of_refunds + number_of_adjustments)'
  FROM files AS f
  WHERE f.parse_status = 'parsed' AND f.footer_count IS NOT NULL AND f.footer_count <> f.stated_lines
  UNION ALL
  SELECT
    'error', f.disbursement_id, f.file_label || ' footer total',
    f.currency,
    f.amount, f.footer_total, CAST(f.footer_total - f.amount AS BIGINT),
    'file ' || f.file_label || ' footer states a total of ' || format_amount(f.footer_total, f.currency)
      || ' ' || COALESCE(f.currency, '') || ' but the disbursement amount is '
      || format_amount(f.amount, f.currency) || ' ' || COALESCE(f.currency, '')
  FROM files AS f
  WHERE f.parse_status = 'parsed' AND f.footer_total IS NOT NULL
    AND f.footer_total IS DISTINCT FROM f.amount
),
file_findings AS (
  SELECT
    CASE WHEN f.parse_status = 'unparseable' THEN 'error' ELSE 'warning' END AS severity,
    f.disbursement_id,
    f.file_label AS subject,
    CAST(NULL AS VARCHAR) AS currency,
    CAST(NULL AS BIGINT) AS expected,
    CAST(NULL AS BIGINT) AS actual,
    CAST(NULL AS BIGINT) AS difference,
    'file ' || f.file_label || CASE f.parse_status
      WHEN 'unrecognised' THEN ' has a layout recon does not recognise; it was kept but not compared with the API'
      WHEN 'unparseable' THEN COALESCE(' (layout ' || f.layout || ')', '')
        || ' could not be parsed, so it was not compared with the API'
      WHEN 'too_large' THEN COALESCE(' (' || CAST(f.size_bytes AS VARCHAR) || ' bytes)', '')
        || ' is over the download size limit, so it was not compared with the API'
      WHEN 'download_failed' THEN ' could not be downloaded, so it was not compared with the API'
      ELSE ' has parse status ''' || f.parse_status || ''' and was not compared with the API'
    END || COALESCE(': ' || f.parse_error, '') AS detail
  FROM files AS f
  WHERE f.parse_status <> 'parsed'
),
all_findings AS (
  SELECT * FROM capped_line_findings
  UNION ALL SELECT * FROM footer_findings
  UNION ALL SELECT * FROM file_findings
)
SELECT
  a.severity,
  a.disbursement_id,
  d.recipient_id,
  a.subject,
  a.currency,
  a.expected,
  a.actual,
  a.difference,
  a.detail
FROM all_findings AS a
JOIN disbursements AS d ON d.disbursement_id = a.disbursement_id
