// A calendar month 'YYYY-MM' (UTC), as the close and the monthly views use it, and a calendar day.
import { addMonths, formatISO } from 'date-fns';

export const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** SQL predicate: the disbursement's delivered_at falls in `month` (UTC). */
export function inMonth(month: string): string {
  if (!MONTH.test(month)) throw new Error(`month must be YYYY-MM, got ${month}`);
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = formatISO(addMonths(new Date(y, m - 1, 1), 1), { representation: 'date' }).slice(0, 7);
  return `delivered_at >= TIMESTAMPTZ '${month}-01 00:00:00+00' AND delivered_at < TIMESTAMPTZ '${next}-01 00:00:00+00'`;
}

/** A strict YYYY-MM-DD naming a day that exists (2026-02-30 and 2026-99-01 do not). */
export function isCalendarDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === v;
}
