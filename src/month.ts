// A calendar month 'YYYY-MM' (UTC), as the close and the monthly views use it.
import { addMonths, formatISO } from 'date-fns';

export const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** SQL predicate: the disbursement's delivered_at falls in `month` (UTC). */
export function inMonth(month: string): string {
  if (!MONTH.test(month)) throw new Error(`month must be YYYY-MM, got ${month}`);
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = formatISO(addMonths(new Date(y, m - 1, 1), 1), { representation: 'date' }).slice(0, 7);
  return `delivered_at >= TIMESTAMPTZ '${month}-01 00:00:00+00' AND delivered_at < TIMESTAMPTZ '${next}-01 00:00:00+00'`;
}
