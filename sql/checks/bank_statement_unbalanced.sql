-- check: bank_statement_unbalanced
-- severity: error
-- title: Bank statement does not add up
-- meaning: The statement's opening balance plus its credits less its debits is not its closing balance:
--   it lacks entries or holds wrong ones, so its credits settle nothing as proven.
-- next step: Ask the bank for a corrected statement and import it; its credits show as "credited on an
--   unbalanced statement" (Bank suspense in the close) until then.
-- requires: bank_transactions
--
-- A statement that states both balances and whose entries do not bridge them (bank_statements.balance_proof
-- 'unbalanced', proof_difference = closing − (opening + credits − debits)). Its entries are kept: a
-- disbursement one of its credits settles is 'credited on an unbalanced statement', not settled, and its
-- days cover no window (bank_coverage), so nothing is concluded from it.
SELECT
  CAST(NULL AS VARCHAR) AS disbursement_id,
  CAST(NULL AS VARCHAR) AS recipient_id,
  'bank statement ' || s.statement_id || ' ' || strftime(s.period_from, '%Y-%m-%d') || '..' || strftime(s.period_to, '%Y-%m-%d') AS subject,
  s.currency,
  s.closing_balance AS expected,
  CAST(s.opening_balance + s.credits - s.debits AS BIGINT) AS actual,
  -s.proof_difference AS difference,
  'statement ' || COALESCE(s.file_name, s.statement_id) || ' of account ' || s.account || ' ' || s.currency || ' ('
    || strftime(s.period_from, '%Y-%m-%d') || ' to ' || strftime(s.period_to, '%Y-%m-%d') || ') does not add up: opening '
    || format_amount(s.opening_balance, s.currency) || ' + credits ' || format_amount(CAST(s.credits AS BIGINT), s.currency)
    || ' − debits ' || format_amount(CAST(s.debits AS BIGINT), s.currency) || ' = '
    || format_amount(CAST(s.opening_balance + s.credits - s.debits AS BIGINT), s.currency) || ' ' || s.currency
    || ', but its closing balance is ' || format_amount(s.closing_balance, s.currency) || ' ' || s.currency
    || ' (a difference of ' || format_amount(s.proof_difference, s.currency) || ' ' || s.currency || ')' AS detail
FROM bank_statements AS s
WHERE s.balance_proof = 'unbalanced'
