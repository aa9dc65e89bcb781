-- The business days after delivery a credit may arrive (bank_settings, written by every run and check from
-- --bank-window-days; the store starts with the option's default).
CREATE OR REPLACE MACRO bank_window_days() AS (
  (SELECT MAX(window_business_days) FROM bank_settings)
);
