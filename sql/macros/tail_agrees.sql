-- The digits a masked account shows (d_tail) agree with a statement account's last digits.
CREATE OR REPLACE MACRO tail_agrees(d_tail, c_tail) AS (
  d_tail = '' OR right(COALESCE(c_tail, ''), length(d_tail)) = d_tail
);
