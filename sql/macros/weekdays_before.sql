-- Weekdays (Monday to Friday) among the first n days counted from a Monday: five in every full week, and
-- those of the part week, which starts on a Monday (arithmetic, no list).
CREATE OR REPLACE MACRO weekdays_before(n) AS ((n // 7) * 5 + least(n % 7, 5));
