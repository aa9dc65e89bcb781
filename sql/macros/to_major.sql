-- to_major(subunits, code) → the amount in major units as DECIMAL(38, 3), exact (every factor divides
-- 1000): the `<column>_major` companions of the documented views, for people reading SQL results.
-- NULL for a NULL amount or a NULL code (a count, not money). Money columns stay integer subunits.
CREATE OR REPLACE MACRO to_major(amt, ccy) AS
  CASE
    WHEN amt IS NULL OR ccy IS NULL THEN NULL
    WHEN list_contains(['CLP', 'JPY', 'VUV'], ccy) THEN CAST(CAST(amt AS DECIMAL(38, 0)) AS DECIMAL(38, 3))
    WHEN ccy = 'MGA' THEN CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.2 AS DECIMAL(2, 1)) AS DECIMAL(38, 3))
    WHEN ccy = 'VND' THEN CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.1 AS DECIMAL(2, 1)) AS DECIMAL(38, 3))
    WHEN list_contains(['BHD', 'KWD', 'LYD', 'OMR', 'TND'], ccy) THEN CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.001 AS DECIMAL(4, 3)) AS DECIMAL(38, 3))
    ELSE CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.01 AS DECIMAL(3, 2)) AS DECIMAL(38, 3))
  END;
