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
