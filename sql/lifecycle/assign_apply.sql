-- Finding $1's owner is now $2 and its due date $3 (NULL: none); the history is finding_assignments.
UPDATE findings SET owner = $2, due_date = CAST($3 AS DATE) WHERE finding_key = $1
