-- Acknowledges finding $1 by $2 at $3 with note $4, run as operating-system user $5 on host $6; $7 and $8: who
-- approved it and when (four eyes), NULL when it needed no approval. Its numbers now are what the
-- acknowledgement covers (a change re-opens it: insert_exceptions.sql).
UPDATE findings SET state = 'acknowledged', ack_by = $2, ack_at = CAST($3 AS TIMESTAMPTZ), ack_note = $4,
  ack_expected = expected, ack_actual = actual, ack_difference = difference,
  ack_os_user = $5, ack_host = $6, ack_approved_by = $7, ack_approved_at = CAST($8 AS TIMESTAMPTZ)
WHERE finding_key = $1
