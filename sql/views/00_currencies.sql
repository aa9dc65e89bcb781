-- Currency facts of the interface's Conventions section, the SQL twin of src/money.ts.
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

-- Digits after the decimal point needed to show any subunit amount exactly (MGA: 1 subunit = 0.2).
CREATE OR REPLACE MACRO currency_decimals(ccy) AS
  CASE currency_factor(ccy) WHEN 1 THEN 0 WHEN 5 THEN 1 WHEN 10 THEN 1 WHEN 1000 THEN 3 ELSE 2 END;

-- The subunit digits of |amt| scaled so that exactly `decimals` of them follow the decimal point
-- (10^decimals / factor is a whole number for every factor: MGA ×2), left-padded to at least
-- decimals + 1 digits so that a point can be placed.
CREATE OR REPLACE MACRO amount_digits(amt, ccy) AS
  lpad(
    CAST(abs(amt) * (CASE WHEN currency_factor(ccy) = 5 THEN 2 ELSE 1 END) AS VARCHAR),
    CAST(greatest(
      length(CAST(abs(amt) * (CASE WHEN currency_factor(ccy) = 5 THEN 2 ELSE 1 END) AS VARCHAR)),
      currency_decimals(ccy) + 1) AS INTEGER),
    '0');

CREATE OR REPLACE MACRO place_point(digits, decimals) AS
  CASE
    WHEN decimals = 0 THEN digits
    ELSE substr(digits, 1, length(digits) - decimals) || '.' || substr(digits, length(digits) - decimals + 1)
  END;

-- format_amount(subunits, code) → exact major-unit text: '1234.56', JPY '1234', KWD '1.234', MGA '1.2';
-- 'n/a' for NULL. For the detail sentences only: numeric columns stay integer subunits.
CREATE OR REPLACE MACRO format_amount(amt, ccy) AS
  CASE
    WHEN amt IS NULL THEN 'n/a'
    ELSE (CASE WHEN amt < 0 THEN '-' ELSE '' END)
      || place_point(amount_digits(amt, ccy), currency_decimals(ccy))
  END;

-- The listed codes (all others are unsupported): the reference list for unlisted_currency.
CREATE OR REPLACE VIEW currencies AS
SELECT code, currency_factor(code) AS factor, currency_decimals(code) AS decimals
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
