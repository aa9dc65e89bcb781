-- The stage, once the lifecycle has taken the run's findings (or the run failed before).
DROP TABLE IF EXISTS check_stage
