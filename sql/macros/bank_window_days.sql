-- The run's --bank-window-days (bank_settings), 3 when unset.
CREATE OR REPLACE MACRO bank_window_days() AS (
  (SELECT COALESCE(MAX(window_business_days), 3) FROM bank_settings)
);
