-- Each finding's controls: its owner — assigned (recon assign), else the configured default owners
-- (owner_rules: the check's rule, then the currency's, then '*') —, its due date, who acknowledged it from
-- which operating-system account and host, who approved that (four eyes), and an acknowledgement waiting
-- for a second person's approval: the finding's last acknowledgement entry, when it is above its currency's
-- threshold and nothing (an approval, a withdrawal) came after it.
CREATE OR REPLACE VIEW finding_controls AS
WITH last_entry AS (
  SELECT finding_key, seq, action, four_eyes, ack_by, ack_at, os_user, host,
    row_number() OVER (PARTITION BY finding_key ORDER BY seq DESC) AS k
  FROM finding_acks
)
SELECT
  f.finding_key,
  COALESCE(f.owner, rc.owner, ry.owner, ra.owner) AS owner,
  CASE
    WHEN f.owner IS NOT NULL THEN 'assigned'
    WHEN rc.owner IS NOT NULL THEN rc.rule
    WHEN ry.owner IS NOT NULL THEN ry.rule
    WHEN ra.owner IS NOT NULL THEN '*'
  END AS owner_source,
  f.due_date,
  f.ack_os_user,
  f.ack_host,
  f.ack_approved_by,
  f.ack_approved_at,
  p.ack_by AS awaiting_approval_of,
  p.ack_at AS awaiting_since,
  p.seq AS awaiting_seq
FROM findings AS f
LEFT JOIN owner_rules AS rc ON rc.rule = 'check:' || f.check_id
LEFT JOIN owner_rules AS ry ON ry.rule = 'currency:' || f.currency
LEFT JOIN owner_rules AS ra ON ra.rule = '*'
LEFT JOIN last_entry AS p ON p.finding_key = f.finding_key AND p.k = 1 AND p.action = 'ack' AND p.four_eyes AND f.state <> 'resolved';
