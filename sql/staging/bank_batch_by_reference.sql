-- A batch credit by its references: a credit naming two or more disbursements of its currency, on
-- its account and in its window, whose amounts add up to it exactly (a camt.053 batch booking whose
-- transactions name the disbursements, or a remittance listing them). A disbursement two such credits
-- claim is left to the findings.
CREATE OR REPLACE VIEW bank_batch_by_reference AS
WITH named AS (
  SELECT n.statement_id, n.entry_ref, d.disbursement_id, d.amount, c.amount AS credit_amount,
    business_days_after(d.delivered_on, c.value_on) AS days_after
  FROM bank_named_all AS n
  JOIN bank_credit_entries AS c ON c.statement_id = n.statement_id AND c.entry_ref = n.entry_ref
  JOIN bank_disbursements AS d ON d.disbursement_id = n.disbursement_id
  WHERE d.currency = c.currency AND tail_agrees(d.tail, c.account_tail) AND in_bank_window(d.delivered_on, c.value_on)
),
whole AS (
  SELECT statement_id, entry_ref, count(*) AS batch_size
  FROM named
  GROUP BY statement_id, entry_ref
  HAVING count(*) >= 2 AND CAST(sum(amount) AS HUGEINT) = any_value(credit_amount)
),
members AS (
  SELECT n.* , w.batch_size FROM named AS n JOIN whole AS w ON w.statement_id = n.statement_id AND w.entry_ref = n.entry_ref
),
contested AS (
  SELECT DISTINCT m.statement_id, m.entry_ref
  FROM members AS m
  WHERE m.disbursement_id IN (SELECT disbursement_id FROM members GROUP BY disbursement_id HAVING count(*) > 1)
)
SELECT m.disbursement_id, m.statement_id, m.entry_ref, true AS by_reference, m.days_after, m.batch_size
FROM members AS m
WHERE NOT EXISTS (SELECT 1 FROM contested AS x WHERE x.statement_id = m.statement_id AND x.entry_ref = m.entry_ref);
