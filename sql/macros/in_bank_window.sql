-- A credit valued on value_on can settle a disbursement delivered on delivered_on.
CREATE OR REPLACE MACRO in_bank_window(delivered_on, value_on) AS (
  value_on >= delivered_on - INTERVAL 1 DAY AND business_days_after(delivered_on, value_on) <= bank_window_days()
);
