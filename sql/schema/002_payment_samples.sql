-- Payments read back from GET /payments/{paymentID} for the payment_cross_check (an auditor's sample).
-- One row per sampled payout; remembered so successive nights cover new payments.
CREATE TABLE payment_samples (
  payment_id             VARCHAR NOT NULL,
  disbursement_id        VARCHAR NOT NULL,        -- the disbursement whose payout was sampled
  payout_reference       VARCHAR,
  sampled_run_id         VARCHAR NOT NULL,
  sampled_at             TIMESTAMPTZ NOT NULL,
  http_status            INTEGER,                 -- 200, or 404 when the service does not know the payment
  payment_status         VARCHAR,
  reported_disbursement_id VARCHAR,               -- the payment's own disbursement_id
  payout_found           BOOLEAN,                 -- a payouts[] entry with this reference/disbursement exists
  payout_amount          BIGINT,
  payout_currency        VARCHAR,
  raw                    JSON,
  PRIMARY KEY (payment_id, disbursement_id)
);
