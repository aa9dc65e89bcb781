import { describe, expect, it } from 'vitest';
import { isOverdue, nextRun, ScheduleConfigError } from '../../../src/ops/cron-time.js';

const iso = (d: Date): string => d.toISOString();
const at = (s: string): Date => new Date(s);

/** The next `count` fire times after `from`, as ISO strings. */
function runs(expr: string, tz: string, from: string, count: number): string[] {
  const out: string[] = [];
  let t = at(from);
  for (let i = 0; i < count; i += 1) {
    t = nextRun(expr, tz, t);
    out.push(iso(t));
  }
  return out;
}

describe('nextRun', () => {
  it('fires at 02:30 UTC the same day, then strictly after the fire time', () => {
    expect(iso(nextRun('30 2 * * *', 'UTC', at('2026-06-01T00:00:00Z')))).toBe('2026-06-01T02:30:00.000Z');
    expect(iso(nextRun('30 2 * * *', 'UTC', at('2026-06-01T02:30:00Z')))).toBe('2026-06-02T02:30:00.000Z');
    expect(iso(nextRun('30 2 * * *', 'UTC', at('2026-06-01T02:29:59.999Z')))).toBe('2026-06-01T02:30:00.000Z');
  });

  it('understands steps, lists, ranges and names', () => {
    // Friday 2026-06-05 17:50 → Monday 09:00
    expect(runs('*/20 9-17 * * 1-5', 'UTC', '2026-06-05T17:30:00Z', 3))
      .toEqual(['2026-06-05T17:40:00.000Z', '2026-06-08T09:00:00.000Z', '2026-06-08T09:20:00.000Z']);
    expect(runs('0 0 1,15 * *', 'UTC', '2026-06-02T00:00:00Z', 2))
      .toEqual(['2026-06-15T00:00:00.000Z', '2026-07-01T00:00:00.000Z']);
    expect(runs('0 6 * jan mon', 'UTC', '2026-06-01T00:00:00Z', 1)).toEqual(['2027-01-04T06:00:00.000Z']);
    expect(runs('0 0 * * 7', 'UTC', '2026-06-01T00:00:00Z', 1)).toEqual(['2026-06-07T00:00:00.000Z']); // 7 = Sunday
    expect(runs('10-30/10 4 * * *', 'UTC', '2026-06-01T00:00:00Z', 4)).toEqual([
      '2026-06-01T04:10:00.000Z', '2026-06-01T04:20:00.000Z', '2026-06-01T04:30:00.000Z', '2026-06-02T04:10:00.000Z',
    ]);
  });

  it('fires on either restricted day field, as classic cron does', () => {
    // the 13th or any Friday: Fri 2026-06-05, Fri 06-12, Sat 06-13, Fri 06-19
    expect(runs('0 0 13 * 5', 'UTC', '2026-06-01T00:00:00Z', 4).map((s) => s.slice(0, 10)))
      .toEqual(['2026-06-05', '2026-06-12', '2026-06-13', '2026-06-19']);
  });

  it('finds 29 February years ahead', () => {
    expect(iso(nextRun('0 0 29 2 *', 'UTC', at('2026-03-01T00:00:00Z')))).toBe('2028-02-29T00:00:00.000Z');
  });

  it('fires at 02:30 Europe/Berlin around both DST changes of 2026', () => {
    expect(runs('30 2 * * *', 'Europe/Berlin', '2026-03-27T12:00:00Z', 4)).toEqual([
      '2026-03-28T01:30:00.000Z', // CET
      '2026-03-29T01:00:00.000Z', // 02:30 does not exist: first instant after the gap (03:00 CEST)
      '2026-03-30T00:30:00.000Z', // CEST
      '2026-03-31T00:30:00.000Z',
    ]);
    expect(runs('30 2 * * *', 'Europe/Berlin', '2026-10-23T12:00:00Z', 3)).toEqual([
      '2026-10-24T00:30:00.000Z', // CEST
      '2026-10-25T00:30:00.000Z', // 02:30 happens twice: the first one (CEST), once
      '2026-10-26T01:30:00.000Z', // CET
    ]);
  });

  it('fires at 02:30 America/New_York around both DST changes of 2026', () => {
    expect(runs('30 2 * * *', 'America/New_York', '2026-03-06T12:00:00Z', 3)).toEqual([
      '2026-03-07T07:30:00.000Z', // EST
      '2026-03-08T07:00:00.000Z', // gap 02:00–03:00: fires at 03:00 EDT
      '2026-03-09T06:30:00.000Z', // EDT
    ]);
    expect(runs('30 2 * * *', 'America/New_York', '2026-10-30T12:00:00Z', 3)).toEqual([
      '2026-10-31T06:30:00.000Z', // EDT
      '2026-11-01T07:30:00.000Z', // 02:30 is after the repeated hour: EST, once
      '2026-11-02T07:30:00.000Z',
    ]);
    expect(runs('30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z', 2)).toEqual([
      '2026-11-01T05:30:00.000Z', // 01:30 EDT, the first of two 01:30s
      '2026-11-02T06:30:00.000Z',
    ]);
  });

  it('fires once right after the gap for sub-hourly schedules inside it', () => {
    expect(runs('*/15 * * * *', 'Europe/Berlin', '2026-03-29T00:40:00Z', 3)).toEqual([
      '2026-03-29T00:45:00.000Z', // 01:45 CET
      '2026-03-29T01:00:00.000Z', // 02:00–02:45 do not exist; 03:00 CEST, once
      '2026-03-29T01:15:00.000Z',
    ]);
  });

  it('rejects bad expressions naming RECON_CRON and bad zones naming RECON_TZ', () => {
    for (const bad of ['61 * * * *', '* * * *', 'every night', '0 30 2 * * *', '0 0 L * *', '*/0 * * * *']) {
      expect(() => nextRun(bad, 'UTC', new Date()), bad).toThrow(ScheduleConfigError);
      expect(() => nextRun(bad, 'UTC', new Date()), bad).toThrow(/RECON_CRON=.*5-field cron expression/);
    }
    expect(() => nextRun('30 2 * * *', 'Mars/Olympus', new Date())).toThrow(/RECON_TZ="Mars\/Olympus" is not an IANA time zone/);
  });
});

describe('isOverdue', () => {
  const tz = 'Europe/Berlin';
  it('is overdue when nothing ever succeeded', () => {
    expect(isOverdue(null, '30 2 * * *', tz, at('2026-06-02T12:00:00Z'))).toBe(true);
  });
  it('is overdue when a fire time passed after the last success', () => {
    expect(isOverdue(at('2026-06-01T01:00:00Z'), '30 2 * * *', tz, at('2026-06-02T12:00:00Z'))).toBe(true);
  });
  it('is not overdue when the last success is after the latest fire time', () => {
    expect(isOverdue(at('2026-06-02T00:45:00Z'), '30 2 * * *', tz, at('2026-06-02T12:00:00Z'))).toBe(false);
  });
  it('counts a fire time exactly now as due', () => {
    expect(isOverdue(at('2026-06-01T01:00:00Z'), '30 2 * * *', tz, at('2026-06-02T00:30:00Z'))).toBe(true);
  });
});
