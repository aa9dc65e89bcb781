-- One line of a close version's journal: $1 month, $2 version, $3 currency, $4 line_no, $5 role, $6 account,
-- $7 code, $8 name, $9 description, $10 debit, $11 credit (subunits as text, so no amount passes a double).
INSERT INTO close_journal_lines
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CAST($10 AS HUGEINT), CAST($11 AS HUGEINT))
