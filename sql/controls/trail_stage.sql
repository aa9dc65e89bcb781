-- Where entries chained in src/store/trail.ts wait, in the appender's types, before they join the chain.
CREATE OR REPLACE TEMP TABLE _trail_stage (
  seq BIGINT, entry_at VARCHAR, kind VARCHAR, subject VARCHAR, content VARCHAR, prev_hash VARCHAR, hash VARCHAR
)
