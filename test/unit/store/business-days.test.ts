// business_days_after (the bank window's measure) is arithmetic: weekdays up to b less those up
// to a, counted from a Monday. This holds it to two independent counts: the list form it replaced and a
// day-by-day count in TypeScript, over seeded random pairs and every pair of a four-week span (each
// weekday to each weekday, part weeks, equal days, b before a, leap days, century edges).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, differenceInCalendarDays, formatISO, getISODay } from 'date-fns';
import { openTempStore, rows, type TempStore } from '../../helpers/check-fixtures.js';

let t: TempStore;
beforeAll(async () => {
  t = await openTempStore();
});
afterAll(async () => {
  await t.close();
});

const SEED = 20261125;
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const day = (d: Date): string => formatISO(d, { representation: 'date' });

/** Weekdays in (a, b] by walking the days; -1 when b is before a. */
function walked(a: Date, b: Date): number {
  if (differenceInCalendarDays(b, a) < 0) return -1;
  let n = 0;
  for (let d = addDays(a, 1); differenceInCalendarDays(b, d) >= 0; d = addDays(d, 1)) if (getISODay(d) <= 5) n += 1;
  return n;
}

function pairs(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const start = new Date(2024, 1, 12); // a Monday two weeks before a leap day
  for (let i = 0; i < 28; i += 1) for (let j = 0; j < 28; j += 1) out.push([day(addDays(start, i)), day(addDays(start, j))]);
  const next = random(SEED);
  const edges = [new Date(1899, 11, 25), new Date(1999, 11, 27), new Date(2026, 0, 1), new Date(2099, 11, 28)];
  for (let k = 0; k < 400; k += 1) {
    const base = addDays(edges[k % edges.length]!, Math.floor(next() * 30));
    out.push([day(base), day(addDays(base, Math.floor(next() * 60) - 5))]);
  }
  return out;
}

describe('business_days_after', () => {
  it(`counts the weekdays after a up to b as a day-by-day count and the list form do (seed ${SEED})`, async () => {
    const all = pairs();
    const got = await rows(t.connection, `
      SELECT a::VARCHAR AS a, b::VARCHAR AS b, business_days_after(a, b) AS macro,
        CASE WHEN b < a THEN -1 ELSE (datediff('day', a, b) // 7) * 5
          + len(list_filter(range(1, CAST(datediff('day', a, b) % 7 AS BIGINT) + 1), k -> ((isodow(a) - 1 + k) % 7) < 5)) END AS listed
      FROM (SELECT unnest([${all.map(([a]) => `DATE '${a}'`).join(',')}]) AS a, unnest([${all.map(([, b]) => `DATE '${b}'`).join(',')}]) AS b)`);
    expect(got).toHaveLength(all.length);
    const wrong = got.filter((r) => {
      const expected = walked(new Date(`${r.a}T00:00:00`), new Date(`${r.b}T00:00:00`));
      return Number(r.macro) !== expected || Number(r.listed) !== expected;
    });
    expect(wrong, `seed ${SEED}`).toEqual([]);
    // spot values a reader can check on a calendar: Friday 2026-11-27 to Monday 2026-11-30 is one business day
    const [spot] = await rows(t.connection, `SELECT business_days_after(DATE '2026-11-27', DATE '2026-11-30') AS fri_mon,
      business_days_after(DATE '2026-11-28', DATE '2026-11-29') AS sat_sun, business_days_after(DATE '2026-11-30', DATE '2026-11-27') AS back`);
    expect(Object.fromEntries(Object.entries(spot!).map(([k, v]) => [k, Number(v)]))).toEqual({ fri_mon: 1, sat_sun: 0, back: -1 });
  });
});
