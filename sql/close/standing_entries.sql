-- The entries of month $1 in format $2 that files booked and no later file reversed: what the next version
-- written in that format reverses, one per currency at most, with its lines in their order.
SELECT e.currency, e.entry_version AS version, e.journal_no, l.role, l.account, l.code, l.name, l.description,
  CAST(l.debit AS VARCHAR) AS debit, CAST(l.credit AS VARCHAR) AS credit
FROM close_journal_files AS e
JOIN close_journal_lines AS l ON l.month = e.month AND l.version = e.entry_version AND l.currency = e.currency
WHERE e.month = $1 AND e.format = $2 AND e.kind = 'entry'
  AND NOT EXISTS (
    SELECT 1 FROM close_journal_files AS r
    WHERE r.month = e.month AND r.format = e.format AND r.currency = e.currency AND r.kind = 'reversal'
      AND r.entry_version = e.entry_version
  )
ORDER BY e.currency, l.line_no
