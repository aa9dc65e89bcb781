-- A journal file a close version wrote: $1 month, $2 version, $3 format, $4 currency, $5 kind (entry |
-- reversal), $6 entry_version, $7 journal_no, $8 file, $9 provisional.
INSERT INTO close_journal_files VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
