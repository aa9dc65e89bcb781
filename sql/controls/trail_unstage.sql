-- The stage, once its entries are in the chain.
DROP TABLE _trail_stage
