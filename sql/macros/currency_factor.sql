-- Currency facts of the interface's Conventions section, the SQL twin of src/money.ts
-- (test/unit/store/currencies.test.ts fails when the two disagree on a code, a factor or a formatted amount).
-- Views and macros, not tables, so they follow the code on every open.
--
-- currency_factor(code): subunits per major unit, 100 unless listed otherwise (unlisted codes too; they
-- are reported by unlisted_currency). These macros are the only dialect-specific objects the checks
-- use: elsewhere define the same functions (Trino/Spark `CREATE FUNCTION ... RETURN`).
CREATE OR REPLACE MACRO currency_factor(ccy) AS
  CASE
    WHEN list_contains(['CLP', 'JPY', 'VUV'], ccy) THEN 1
    WHEN ccy = 'MGA' THEN 5
    WHEN ccy = 'VND' THEN 10
    WHEN list_contains(['BHD', 'KWD', 'LYD', 'OMR', 'TND'], ccy) THEN 1000
    ELSE 100
  END;
