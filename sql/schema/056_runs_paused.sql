-- the time a run's sync sat in 429 blocks (no request could leave), so a 12-minute night that was
-- 10 minutes of block says so in the runs table as well as in its summary. NULL: before this column, or
-- a command that did not sync.
ALTER TABLE runs ADD COLUMN paused_ms BIGINT;
