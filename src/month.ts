// A calendar month 'YYYY-MM' (UTC; sql/macros/month_of.sql is its SQL side) and a calendar day.
export const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A strict YYYY-MM-DD naming a day that exists (2026-02-30 and 2026-99-01 do not). */
export function isCalendarDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === v;
}
