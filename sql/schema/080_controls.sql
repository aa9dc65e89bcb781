-- Controls an auditor accepts: who did what and when, provably.
--
-- Who: every acknowledgement, withdrawal, approval, assignment, acceptance of unaccounted money and close
-- records the person named (--by, RECON_ACK_BY or "ackBy") and the operating-system user and host that ran
-- the command. Four eyes: an acknowledgement (or acceptance) above the currency's --four-eyes threshold is
-- pending until a second, different person approves it. Owners and due dates: `recon assign` appends to
-- finding_assignments; a finding without one takes the owner the configured rules give (owner_rules).
--
-- The trail: audit_trail is a hash chain (src/store/trail.ts): each entry's hash is the SHA-256 of its own
-- fields and the previous entry's hash, so an edited, removed or reordered entry, or a row of finding_acks,
-- closes, runs or findings changed without one, is found by `recon verify`. audit_trail_head keeps the last
-- entry so that appending costs one row read, never the whole chain; trail_finding_state keeps each
-- finding's state as the trail last recorded it, so a night appends only the states that changed. The
-- chain is seeded from the rows already here when this migration runs (src/store/trail-seed.ts).
ALTER TABLE finding_acks ADD COLUMN os_user VARCHAR;      -- who ran the command, as the operating system says
ALTER TABLE finding_acks ADD COLUMN host VARCHAR;
ALTER TABLE finding_acks ADD COLUMN four_eyes BOOLEAN;    -- ack above the threshold: pending until approved
ALTER TABLE finding_acks ADD COLUMN approves INTEGER;     -- approve: the seq of the acknowledgement approved

ALTER TABLE findings ADD COLUMN ack_os_user VARCHAR;      -- of the acknowledgement in force
ALTER TABLE findings ADD COLUMN ack_host VARCHAR;
ALTER TABLE findings ADD COLUMN ack_approved_by VARCHAR;  -- the second person, when four eyes applied
ALTER TABLE findings ADD COLUMN ack_approved_at TIMESTAMPTZ;
ALTER TABLE findings ADD COLUMN owner VARCHAR;            -- assigned (recon assign); NULL: the rules' owner
ALTER TABLE findings ADD COLUMN due_date DATE;

CREATE TABLE finding_assignments (
  finding_key  VARCHAR NOT NULL,
  seq          INTEGER NOT NULL,                          -- 1, 2, … per finding
  owner        VARCHAR NOT NULL,
  due_date     DATE,
  assigned_by  VARCHAR NOT NULL,
  assigned_at  TIMESTAMPTZ NOT NULL,
  note         VARCHAR,
  os_user      VARCHAR,
  host         VARCHAR,
  PRIMARY KEY (finding_key, seq)
);

-- The configured default owners ("defaultOwners"): rule 'check:<id>', 'currency:<CCY>' or '*'.
CREATE TABLE owner_rules (
  rule   VARCHAR PRIMARY KEY,
  owner  VARCHAR NOT NULL
);

ALTER TABLE closes ADD COLUMN closed_by VARCHAR;          -- the person named; NULL: nobody was
ALTER TABLE closes ADD COLUMN closed_os_user VARCHAR;
ALTER TABLE closes ADD COLUMN closed_host VARCHAR;
ALTER TABLE closes ADD COLUMN accepted_os_user VARCHAR;
ALTER TABLE closes ADD COLUMN accepted_host VARCHAR;
ALTER TABLE closes ADD COLUMN acceptance_state VARCHAR;   -- approved | pending (four eyes) | NULL: none
ALTER TABLE closes ADD COLUMN approved_by VARCHAR;
ALTER TABLE closes ADD COLUMN approved_at TIMESTAMPTZ;
ALTER TABLE closes ADD COLUMN approved_os_user VARCHAR;
ALTER TABLE closes ADD COLUMN approved_host VARCHAR;
ALTER TABLE closes ADD COLUMN trail_seq BIGINT;           -- the close's trail entry, printed on its Summary
ALTER TABLE closes ADD COLUMN trail_hash VARCHAR;

CREATE TABLE audit_trail (
  seq        BIGINT PRIMARY KEY,                          -- 1, 2, … without a gap
  entry_at   TIMESTAMPTZ NOT NULL,                        -- when it happened (the clock of the command)
  kind       VARCHAR NOT NULL,                            -- run | finding | ack | assign | close | reissue | evidence
  subject    VARCHAR NOT NULL,                            -- a run id, a finding key, 'YYYY-MM vN'
  content    VARCHAR NOT NULL,                            -- canonical JSON (keys sorted)
  prev_hash  VARCHAR NOT NULL,                            -- the previous entry's hash; 64 zeros for the first
  hash       VARCHAR NOT NULL                             -- sha256 of [seq, entry_at, kind, subject, content, prev_hash]
);

CREATE TABLE audit_trail_head (
  id    INTEGER PRIMARY KEY,                              -- always 1: one row
  seq   BIGINT NOT NULL,
  hash  VARCHAR NOT NULL
);

CREATE TABLE trail_finding_state (
  finding_key  VARCHAR PRIMARY KEY,
  state        VARCHAR NOT NULL
);
