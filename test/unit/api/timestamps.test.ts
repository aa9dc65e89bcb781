// Issue 26: the service's timestamps read exactly (src/timestamp.ts), never by Date.parse's leniency.
import { describe, expect, it } from 'vitest';
import { outsideWindow, parseServiceTimestamp, serviceTimestampMs, utcText, type Instant } from '../../../src/timestamp.js';
import { DisbursementSchema, describeIssues } from '../../../src/api/schemas.js';

const utc = (s: string) => {
  const at = parseServiceTimestamp(s);
  return typeof at === 'string' ? at : utcText(at);
};

describe('service timestamps', () => {
  it.each([
    ['2026-10-05T06:00:00Z', '2026-10-05 06:00:00.000000+00'],
    ['2026-10-05T06:00Z', '2026-10-05 06:00:00.000000+00'], // without seconds
    ['2026-10-05T06:00:00z', '2026-10-05 06:00:00.000000+00'], // lowercase z
    ['2026-10-05t06:00:00Z', '2026-10-05 06:00:00.000000+00'],
    ['2026-10-05T08:00:00+02:00', '2026-10-05 06:00:00.000000+00'],
    ['2026-10-05T08:00:00+0200', '2026-10-05 06:00:00.000000+00'],
    ['2026-10-05T08:00:00+02', '2026-10-05 06:00:00.000000+00'],
    ['2026-10-31T20:30:00-04:00', '2026-11-01 00:30:00.000000+00'],
    ['2026-10-05T05:15:00-00:45', '2026-10-05 06:00:00.000000+00'],
    ['2026-10-31T23:30:00', '2026-10-31 23:30:00.000000+00'], // no zone: UTC, never the host's
    ['2026-10-31T23:30', '2026-10-31 23:30:00.000000+00'],
    ['2026-10-05T06:00:00.5Z', '2026-10-05 06:00:00.500000+00'],
    ['2026-10-05T06:00:00.123Z', '2026-10-05 06:00:00.123000+00'],
    ['2026-10-05T06:00:00.123456Z', '2026-10-05 06:00:00.123456+00'],
    ['2026-10-05T06:00:00.123456789Z', '2026-10-05 06:00:00.123456+00'], // beyond microseconds: cut off
    ['2026-10-05T06:00:00,25Z', '2026-10-05 06:00:00.250000+00'],
    ['2026-10-05T00:30:00.25+01:00', '2026-10-04 23:30:00.250000+00'],
    ['20261005T060000Z', '2026-10-05 06:00:00.000000+00'], // basic format
    ['20261005T0800+0200', '2026-10-05 06:00:00.000000+00'],
    ['2024-02-29T12:00:00Z', '2024-02-29 12:00:00.000000+00'],
    ['2000-02-29T12:00:00Z', '2000-02-29 12:00:00.000000+00'],
    ['2026-12-31T23:59:59.999999-01:00', '2027-01-01 00:59:59.999999+00'],
    // past 2^53 microseconds since 1970 (about 2255): held as seconds and microseconds, never one double
    ['9999-12-01T23:59:59.999999Z', '9999-12-01 23:59:59.999999+00'],
    ['9999-12-31T23:59:59.999999Z', '9999-12-31 23:59:59.999999+00'],
    ['2262-04-11T23:47:16.854775Z', '2262-04-11 23:47:16.854775+00'],
    ['0001-01-01T00:00:00.000001Z', '0001-01-01 00:00:00.000001+00'],
  ])('%s is %s', (input, expected) => {
    expect(utc(input)).toBe(expected);
  });

  it.each([
    ['2026-02-30T00:00:00Z', 'names a day that does not exist (2026-02-30)'],
    ['2025-02-29T00:00:00Z', 'names a day that does not exist (2025-02-29)'],
    ['1900-02-29T00:00:00Z', 'names a day that does not exist (1900-02-29)'],
    ['2026-04-31T00:00:00Z', 'names a day that does not exist (2026-04-31)'],
    ['2026-13-01T00:00:00Z', 'names a day that does not exist (2026-13-01)'],
    ['2026-10-05T24:00:00Z', 'names a time of day that does not exist (24:00:00)'],
    ['2026-10-05T06:60Z', 'names a time of day that does not exist (06:60)'],
    ['2026-10-05T06:00:60Z', 'names a time of day that does not exist (06:00:60)'],
    ['2026-10-05T06:00:00+25:00', 'has an offset that does not exist (+2500)'],
  ])('%s is impossible: %s', (input, reason) => {
    expect(utc(input)).toBe(reason);
  });

  it.each(['10/05/2026', '2026-10-05', '2026-10-05 06:00:00Z', 'Mon, 05 Oct 2026 06:00:00 GMT', '2026-10-05T06Z', '2026-10-05T06:00:00.Z',
    '2026-10-05T06:00:00Zulu', ' 2026-10-05T06:00:00Z', '2026-1-5T06:00:00Z', '1759644000', '', '2026-10-0506:00:00Z', '2026-10-05T0600Z'])(
    '%j is not an ISO 8601 timestamp', (input) => {
      expect(utc(input)).toMatch(/^is not an ISO 8601 timestamp/);
      expect(serviceTimestampMs(input)).toBeNaN();
    });

  it('agrees with Date for random instants written in every form (seeded)', () => {
    let seed = 2611;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');
    for (let i = 0; i < 2000; i += 1) {
      const ms = Math.floor(next() * 4_102_444_800_000); // 1970 … 2100
      const offset = Math.floor(next() * 26 * 4 - 12 * 4) * 15; // -12:00 … +13:45 in quarter hours
      const local = new Date(ms + offset * 60_000);
      const sign = offset < 0 ? '-' : '+';
      const zone = [`${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`, `${sign}${pad(Math.trunc(offset / 60))}${pad(offset % 60)}`][i % 2]!;
      const text = `${local.toISOString().slice(0, 23)}${offset === 0 && i % 3 === 0 ? 'Z' : zone}`;
      expect(serviceTimestampMs(text), `seed 2611, case ${i}: ${text}`).toBe(ms);
    }
  });

  it('a timestamp outside 1970 … a year after the run\'s clock is outside the window recon holds, with the reason', () => {
    const now = Date.parse('2026-11-25T02:30:00Z');
    const at = (s: string) => parseServiceTimestamp(s) as Instant;
    expect(outsideWindow(at('9999-12-31T23:59:59Z'), now)).toBe(
      "is more than a year after this run's clock (2026-11-25), outside the dates recon holds (1970 to a year after the run)");
    expect(outsideWindow(at('2027-11-27T00:00:00Z'), now)).toMatch(/^is more than a year after/);
    expect(outsideWindow(at('1969-12-31T23:59:59.999999Z'), now)).toBe('is before 1970, outside the dates recon holds (1970 to a year after the run)');
    expect(outsideWindow(at('0001-01-01T00:00:00Z'), now)).toMatch(/^is before 1970/);
    for (const inside of ['1970-01-01T00:00:00Z', '2026-11-25T02:30:00Z', '2026-11-26T12:00:00+02:00', '2027-11-25T00:00:00Z']) {
      expect(outsideWindow(at(inside), now), inside).toBeNull();
    }
  });

  it('a disbursement whose delivered_at names no instant fails validation with a plain reason', () => {
    const record = { disbursement_id: 'd1', recipient_id: 'r1', status: 'delivered', number_of_payments: 0, number_of_refunds: 0,
      number_of_adjustments: 0, amount: 0, currency: 'EUR' };
    for (const [at, reason] of [
      ['2026-02-30T00:00:00Z', 'delivered_at: names a day that does not exist (2026-02-30) (got "2026-02-30T00:00:00Z")'],
      ['10/05/2026', 'delivered_at: is not an ISO 8601 timestamp (expected e.g. 2026-10-05T06:00:00Z) (got "10/05/2026")'],
    ] as const) {
      const parsed = DisbursementSchema.safeParse({ ...record, delivered_at: at });
      expect(parsed.success).toBe(false);
      expect(describeIssues(parsed.error!, { ...record, delivered_at: at })).toBe(reason);
    }
    for (const at of ['2026-10-05T06:00Z', '2026-10-05T06:00:00z', '2026-10-05T08:00:00+0200', '2026-10-31T23:30:00', '2026-10-05T06:00:00.1234567Z']) {
      expect(DisbursementSchema.safeParse({ ...record, delivered_at: at }).success).toBe(true);
    }
  });
});
