-- Currency facts of the interface's Conventions section, the SQL twin of src/money.ts
-- (test/load/currencies.test.ts fails when the two disagree on a code, a factor or a formatted amount).
-- Views and macros, not tables, so they follow the code on every open.
--
-- currency_factor(code): subunits per major unit, 100 unless listed otherwise (unlisted codes too; they
-- are reported by unlisted_currency). These macros are the only dialect-specific objects the checks
-- use: elsewhere define the same functions (Trino/Spark `CREATE FUNCTION ... RETURN`).
CREATE OR REPLACE MACRO currency_factor(ccy) AS
  CASE
    WHEN ccy IN ('CLP', 'JPY', 'VUV') THEN 1
    WHEN ccy = 'MGA' THEN 5
    WHEN ccy = 'VND' THEN 10
    WHEN ccy IN ('BHD', 'KWD', 'LYD', 'OMR', 'TND') THEN 1000
    ELSE 100
  END;

-- format_amount(subunits, code) → exact major-unit text: '1234.56', JPY '1234', KWD '1.234', MGA '1.2';
-- 'n/a' for NULL. For the detail sentences only: numeric columns stay integer subunits. Exact decimal
-- arithmetic (DECIMAL(38,0) × 0.01 is DECIMAL(38,2)), never floating point; kept to one flat CASE over
-- the code, with the same lists as currency_factor above, because the checks call
-- it many times per row and DuckDB expands macros inline: a CASE on currency_factor(code) would copy
-- currency_factor's CASE into every branch, and preparing those trees cost tens of ms per check.
CREATE OR REPLACE MACRO format_amount(amt, ccy) AS
  CASE
    WHEN amt IS NULL THEN 'n/a'
    WHEN ccy IN ('CLP', 'JPY', 'VUV') THEN CAST(CAST(amt AS DECIMAL(38, 0)) AS VARCHAR)
    WHEN ccy = 'MGA' THEN CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.2 AS DECIMAL(2, 1)) AS VARCHAR)
    WHEN ccy = 'VND' THEN CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.1 AS DECIMAL(2, 1)) AS VARCHAR)
    WHEN ccy IN ('BHD', 'KWD', 'LYD', 'OMR', 'TND')
      THEN CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.001 AS DECIMAL(4, 3)) AS VARCHAR)
    ELSE CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.01 AS DECIMAL(3, 2)) AS VARCHAR)
  END;

-- to_major(subunits, code) → the amount in major units as DECIMAL(38, 3), exact (every factor divides
-- 1000): the `<column>_major` companions of the documented views, for people reading SQL results.
-- NULL for a NULL amount or a NULL code (a count, not money). Money columns stay integer subunits.
CREATE OR REPLACE MACRO to_major(amt, ccy) AS
  CASE
    WHEN amt IS NULL OR ccy IS NULL THEN NULL
    WHEN ccy IN ('CLP', 'JPY', 'VUV') THEN CAST(CAST(amt AS DECIMAL(38, 0)) AS DECIMAL(38, 3))
    WHEN ccy = 'MGA' THEN CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.2 AS DECIMAL(2, 1)) AS DECIMAL(38, 3))
    WHEN ccy = 'VND' THEN CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.1 AS DECIMAL(2, 1)) AS DECIMAL(38, 3))
    WHEN ccy IN ('BHD', 'KWD', 'LYD', 'OMR', 'TND') THEN CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.001 AS DECIMAL(4, 3)) AS DECIMAL(38, 3))
    ELSE CAST(CAST(amt AS DECIMAL(38, 0)) * CAST(0.01 AS DECIMAL(3, 2)) AS DECIMAL(38, 3))
  END;

-- The listed codes (all others are unsupported): the reference list for unlisted_currency.
CREATE OR REPLACE VIEW currencies AS
SELECT code, currency_factor(code) AS factor
FROM (VALUES
  ('AED'), ('AFN'), ('AMD'), ('ANG'), ('AOA'), ('ARS'), ('AUD'), ('AWG'),
  ('AZN'), ('BAM'), ('BBD'), ('BDT'), ('BGN'), ('BHD'), ('BIF'), ('BMD'),
  ('BND'), ('BOB'), ('BRL'), ('BSD'), ('BTN'), ('BWP'), ('BZD'), ('CAD'),
  ('CDF'), ('CHF'), ('CLP'), ('CNH'), ('CNY'), ('COP'), ('CRC'), ('CVE'),
  ('CZK'), ('DJF'), ('DKK'), ('DOP'), ('DZD'), ('EGP'), ('ERN'), ('ETB'),
  ('EUR'), ('FJD'), ('FKP'), ('GBP'), ('GEL'), ('GHS'), ('GIP'), ('GMD'),
  ('GNF'), ('GTQ'), ('GYD'), ('HKD'), ('HNL'), ('HRK'), ('HTG'), ('HUF'),
  ('IDR'), ('ILS'), ('INR'), ('ISK'), ('JMD'), ('JOD'), ('JPY'), ('KES'),
  ('KGS'), ('KHR'), ('KMF'), ('KRW'), ('KWD'), ('KYD'), ('KZT'), ('LAK'),
  ('LBP'), ('LKR'), ('LRD'), ('LSL'), ('LYD'), ('MAD'), ('MDL'), ('MGA'),
  ('MKD'), ('MMK'), ('MNT'), ('MOP'), ('MUR'), ('MVR'), ('MWK'), ('MXN'),
  ('MYR'), ('MZN'), ('NAD'), ('NGN'), ('NIO'), ('NOK'), ('NPR'), ('NZD'),
  ('OMR'), ('PAB'), ('PEN'), ('PGK'), ('PHP'), ('PKR'), ('PLN'), ('PYG'),
  ('QAR'), ('RON'), ('RSD'), ('RWF'), ('SAR'), ('SBD'), ('SCR'), ('SEK'),
  ('SGD'), ('SHP'), ('SLL'), ('SOS'), ('SRD'), ('STD'), ('SZL'), ('THB'),
  ('TJS'), ('TND'), ('TOP'), ('TRY'), ('TTD'), ('TWD'), ('TZS'), ('UAH'),
  ('UGX'), ('USD'), ('UYU'), ('UZS'), ('VND'), ('VUV'), ('WST'), ('XAF'),
  ('XCD'), ('XOF'), ('XPF'), ('YER'), ('ZAR'), ('ZMW')
) AS listed(code);
