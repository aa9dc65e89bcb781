-- downloaded files (files/<ab>/<sha256>) that `recon prune` removed under the retention
-- (--keep-days): the sync reads a disbursement again when one of its files is missing from files/, but
-- not for one pruned on purpose.
CREATE TABLE pruned_blobs (
  sha256    VARCHAR PRIMARY KEY,
  pruned_at TIMESTAMPTZ NOT NULL,
  run_id    VARCHAR NOT NULL
);
