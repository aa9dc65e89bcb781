-- format_amount(subunits, code) → exact major-unit text: '1234.56', JPY '1234', KWD '1.234', MGA '1.2';
-- 'n/a' for NULL. For the detail sentences only: numeric columns stay integer subunits. Exact decimal
-- arithmetic (DECIMAL(38,0) × 0.01 is DECIMAL(38,2)), never floating point; kept to one flat CASE over
-- the code, with the same lists as currency_factor above, because the checks call
-- it many times per row and DuckDB expands macros inline: a CASE on currency_factor(code) would copy
-- currency_factor's CASE into every branch, and preparing those trees cost tens of ms per check. The codes
-- are looked up with list_contains, not IN (…): DuckDB plans an IN list of five constants as a join
-- against a little table, one per call, and a check calling this six times ran six more joins.
CREATE OR REPLACE MACRO format_amount(amt, ccy) AS
  CASE
    WHEN amt IS NULL THEN 'n/a'
    WHEN list_contains(['CLP', 'JPY', 'VUV'], ccy) THEN CAST(CAST(amt AS DECIMAL(38, 0)) AS VARCHAR)
    WHEN ccy = 'MGA' THEN CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.2 AS DECIMAL(2, 1)) AS VARCHAR)
    WHEN ccy = 'VND' THEN CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.1 AS DECIMAL(2, 1)) AS VARCHAR)
    WHEN list_contains(['BHD', 'KWD', 'LYD', 'OMR', 'TND'], ccy)
      THEN CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.001 AS DECIMAL(4, 3)) AS VARCHAR)
    ELSE CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.01 AS DECIMAL(3, 2)) AS VARCHAR)
  END;
