-- Acknowledges finding $1 by $2 at $3 with note $4; its numbers now are what the acknowledgement covers
-- (a change re-opens it: insert_exceptions.sql).
UPDATE findings SET state = 'acknowledged', ack_by = $2, ack_at = CAST($3 AS TIMESTAMPTZ), ack_note = $4,
  ack_expected = expected, ack_actual = actual, ack_difference = difference
WHERE finding_key = $1
