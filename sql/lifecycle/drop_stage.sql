-- The stage, once the lifecycle has taken the run's findings.
DROP TABLE check_stage
