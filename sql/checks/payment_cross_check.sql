-- check: payment_cross_check
-- severity: error
-- title: Payment details disagree
-- meaning: A sampled payment's own details disagree with its payout line in the disbursement.
-- next step: Ask the provider which is right, the payment or the disbursement; correct the booking
--   if the payment is.
-- scope: reference
--
-- An auditor's sample: payouts read back from GET /payments/{paymentID} (payment_samples). The payment's
-- own view must agree with the disbursement's payout line (interface, Payment (details): the details are
-- real-time and authoritative):
--   * its disbursement_id is the sampled disbursement,
--   * its status is guaranteed or delivered (payouts exist only from then on),
--   * its payouts[] has an entry for this disbursement, with the payout line's amount and currency,
--   * the service knows the payment at all (HTTP 404 is a finding).
-- One finding per sampled payment listing every problem. A sample that could not be read for another
-- reason (refused with 401/403/422, a 5xx after its few retries, no answer) is unverified, not a
-- finding: nothing is known to be wrong, and the workbook's Summary counts them ("Look-ups unverified").
WITH payout_line AS (
  SELECT disbursement_id, payment_id, reference, line_no, amount, currency,
    ROW_NUMBER() OVER (PARTITION BY disbursement_id, payment_id, reference ORDER BY line_no) AS rn
  FROM payouts
  WHERE payment_id IN (SELECT payment_id FROM payment_samples)
),
samples AS (
  SELECT
    s.payment_id,
    s.disbursement_id,
    s.payout_reference,
    s.http_status,
    s.payment_status,
    s.reported_disbursement_id,
    s.payout_found,
    s.payout_amount,
    s.payout_currency,
    d.recipient_id,
    p.line_no,
    p.amount AS line_amount,
    p.currency AS line_currency
  FROM payment_samples AS s
  JOIN disbursements AS d ON d.disbursement_id = s.disbursement_id
  LEFT JOIN payout_line AS p
    ON p.disbursement_id = s.disbursement_id
   AND p.payment_id = s.payment_id
   AND (s.payout_reference IS NULL OR p.reference = s.payout_reference)
   AND p.rn = 1
  -- a sample of an archived disbursement: its payout line is not in the store, its finding stays as it was
  WHERE s.disbursement_id NOT IN (SELECT disbursement_id FROM archived_disbursements)
),
problems AS (
  SELECT
    s.*,
    CASE
      WHEN s.http_status = 404 THEN '; the payments service does not know this payment (HTTP 404)'
      WHEN s.http_status IS DISTINCT FROM 200 THEN ''
      ELSE
        CASE WHEN s.reported_disbursement_id IS DISTINCT FROM s.disbursement_id
          THEN '; the payment names disbursement ' || COALESCE(s.reported_disbursement_id, '(none)') ELSE '' END
        || CASE WHEN s.payment_status IS NULL OR s.payment_status NOT IN ('guaranteed', 'delivered')
          THEN '; payment status is ' || COALESCE(s.payment_status, '(none)') || ', not guaranteed or delivered'
          ELSE '' END
        || CASE WHEN s.payout_found IS NULL OR NOT s.payout_found
          THEN '; the payment lists no payout for this disbursement' ELSE '' END
        || CASE WHEN s.payout_found AND s.line_no IS NOT NULL
                 AND (s.payout_amount IS DISTINCT FROM s.line_amount
                      OR s.payout_currency IS DISTINCT FROM s.line_currency)
          THEN '; the payment''s payout is ' || format_amount(s.payout_amount, s.payout_currency) || ' '
               || COALESCE(s.payout_currency, '') || ' but payout line ' || CAST(s.line_no AS VARCHAR)
               || ' says ' || format_amount(s.line_amount, s.line_currency) || ' ' || COALESCE(s.line_currency, '')
          ELSE '' END
    END AS problem
  FROM samples AS s
)
SELECT
  p.disbursement_id,
  p.recipient_id,
  p.payment_id AS subject,
  COALESCE(p.line_currency, p.payout_currency) AS currency,
  p.line_amount AS expected,
  p.payout_amount AS actual,
  CAST(p.payout_amount - p.line_amount AS BIGINT) AS difference,
  'payment ' || p.payment_id || COALESCE(' (payout ' || p.payout_reference || ')', '')
    || ' sampled from this disbursement' || p.problem AS detail
FROM problems AS p
WHERE p.problem <> ''
