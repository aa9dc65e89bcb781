-- When each disbursement was last read in depth (its payouts, refunds, adjustments and files), whether or
-- not the read changed anything (disbursements.synced_at moves only when the content did). The nightly
-- rotation (src/sync/rotation.ts) re-reads an unchanged disbursement of the lookback window
-- when its rotation slot comes round or when this is older than the rotation period.
CREATE TABLE deep_reads (
  disbursement_id VARCHAR PRIMARY KEY,
  read_at         TIMESTAMPTZ NOT NULL,
  run_id          VARCHAR NOT NULL
);
