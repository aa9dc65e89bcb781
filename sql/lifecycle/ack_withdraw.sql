-- Withdraws the acknowledgement of finding $1: it is open again (the history keeps who acknowledged it and
-- who withdrew it, finding_acks), and no acknowledgement is current.
UPDATE findings SET state = 'open', ack_by = NULL, ack_at = NULL, ack_note = NULL,
  ack_expected = NULL, ack_actual = NULL, ack_difference = NULL,
  ack_os_user = NULL, ack_host = NULL, ack_approved_by = NULL, ack_approved_at = NULL
WHERE finding_key = $1 AND state = 'acknowledged'
