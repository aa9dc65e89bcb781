-- #27: acknowledgements are an append-only history. Every `recon ack` adds a row (a second note never
-- replaces the first), and `recon ack --withdraw` adds a 'withdraw' row: who, when, why, and the numbers
-- the entry covered. findings.ack_* stay the current acknowledgement (what insert_exceptions.sql compares
-- against, what the workbook shows); this table is what happened. Acknowledgements made before the
-- history existed become each finding's first entry.
CREATE TABLE finding_acks (
  finding_key     VARCHAR NOT NULL,
  seq             INTEGER NOT NULL,             -- 1, 2, … per finding, in the order recorded
  action          VARCHAR NOT NULL,             -- ack | withdraw
  ack_by          VARCHAR NOT NULL,
  ack_at          TIMESTAMPTZ NOT NULL,
  note            VARCHAR NOT NULL,
  expected        BIGINT,                       -- the finding's numbers when the entry was made
  actual          BIGINT,
  difference      BIGINT,
  currency        VARCHAR,
  PRIMARY KEY (finding_key, seq)
);

INSERT INTO finding_acks (finding_key, seq, action, ack_by, ack_at, note, expected, actual, difference, currency)
SELECT finding_key, 1, 'ack', ack_by, COALESCE(ack_at, last_seen), COALESCE(ack_note, ''),
  ack_expected, ack_actual, ack_difference, currency
FROM findings
WHERE ack_by IS NOT NULL;
