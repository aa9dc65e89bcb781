// The service's timestamps (interface § Conventions: "ISO 8601 UTC strings", e.g. with a trailing Z), read
// exactly, never by Date.parse: its leniency reads "10/05/2026" as a local date, a zone-less timestamp in
// the host's time zone (under TZ=America/New_York 2026-10-31T23:30:00 would land in November) and rolls
// 2026-02-30 over into March. Accepted: ISO 8601 date and time, extended (2026-10-05T06:00:00Z) or basic
// (20261005T060000Z), with or without seconds, with a fraction of any length (. or ,), a zone of Z or z, an
// offset (+02:00, +0200, +02) or none — no zone is UTC, as the interface says. Issue 26.

/**
 * An instant to the microsecond (the store's TIMESTAMPTZ precision; finer fractions are cut off), held as
 * whole seconds and the microseconds within that second: microseconds since 1970 in one double are exact
 * only to 2^53 (about the year 2255), and 9999-12-01T23:59:59.999999Z would round to the next day.
 */
export interface Instant {
  /** Whole seconds since 1970-01-01T00:00:00Z (negative before). */
  epochSeconds: number;
  /** 0 … 999 999. */
  micros: number;
}

const EXTENDED =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;
const BASIC = /^(\d{4})(\d{2})(\d{2})[Tt](\d{2})(\d{2})(?:(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(\d{2})?)?$/;

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the store writes four-digit years of the common era. */
const FIRST_SECOND = -62_135_596_800;
const LAST_SECOND = 253_402_300_799;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const year = m <= 2 ? y - 1 : y;
  const era = Math.floor(year / 400);
  const yoe = year - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/**
 * The instant a service timestamp names, or why it names none, in words an accountant can forward
 * ("is not an ISO 8601 timestamp", "names a day that does not exist (2026-02-30)").
 */
export function parseServiceTimestamp(text: string): Instant | string {
  const m = EXTENDED.exec(text) ?? BASIC.exec(text);
  if (!m) return 'is not an ISO 8601 timestamp (expected e.g. 2026-10-05T06:00:00Z)';
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return `names a day that does not exist (${m[1]}-${m[2]}-${m[3]})`;
  }
  if (hour > 23 || minute > 59 || second > 59)
    return `names a time of day that does not exist (${m[4]}:${m[5]}${m[6] === undefined ? '' : `:${m[6]}`})`;
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = m[11] === undefined ? 0 : Number(m[11]);
    if (oh > 23 || om > 59) return `has an offset that does not exist (${m[9]}${m[10]}${m[11] ?? ''})`;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const micros = m[7] === undefined ? 0 : Number(m[7].slice(0, 6).padEnd(6, '0'));
  const seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60;
  if (seconds < FIRST_SECOND || seconds > LAST_SECOND) return 'is outside the years 0001 to 9999 (in UTC)';
  return { epochSeconds: seconds, micros };
}

/** Milliseconds since the epoch of a service timestamp, or NaN when it names no instant (as Date.parse would say). */
export function serviceTimestampMs(text: string): number {
  const at = parseServiceTimestamp(text);
  return typeof at === 'string' ? Number.NaN : instantMs(at);
}

function instantMs(at: Instant): number {
  return at.epochSeconds * 1000 + Math.floor(at.micros / 1000);
}

/**
 * How far past a run's clock a delivered_at may lie. A disbursement is delivered before it is listed;
 * a day or so ahead is a clock apart, a year ahead is no date at all (9999-12-31 is a "never" sentinel)
 * and would carry the month-by-month sheets and windows past anything they can name.
 */
const MAX_AHEAD_DAYS = 366;
const DAY_MS = 86_400_000;

/**
 * Why a delivered_at recon can parse is still not one it holds and reasons about, or null: the window is
 * 1970-01-01T00:00:00Z to MAX_AHEAD_DAYS days after the run's clock (`nowMs`). Outside it the record is
 * quarantined with this reason, like a timestamp that names no instant.
 */
export function outsideWindow(at: Instant, nowMs: number): string | null {
  if (at.epochSeconds < 0) return 'is before 1970, outside the dates recon holds (1970 to a year after the run)';
  const ms = instantMs(at);
  if (ms > nowMs + MAX_AHEAD_DAYS * DAY_MS) {
    const day = new Date(nowMs).toISOString().slice(0, 10);
    return `is more than a year after this run's clock (${day}), outside the dates recon holds `
      + '(1970 to a year after the run)';
  }
  return null;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * The instant as text DuckDB reads the same under any session time zone: '2026-10-05 06:00:00.000000+00'
 * (an explicit UTC offset; CAST(… AS TIMESTAMPTZ) of it is exact to the microsecond).
 */
export function utcText(at: Instant): string {
  const { epochSeconds: seconds, micros } = at;
  const day = Math.floor(seconds / 86_400);
  const inDay = seconds - day * 86_400;
  const date = new Date(day * 86_400_000);
  const y = date.getUTCFullYear();
  const text = `${pad(y, 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const clock = `${pad(Math.floor(inDay / 3600))}:${pad(Math.floor((inDay % 3600) / 60))}:${pad(inDay % 60)}`;
  return `${text} ${clock}.${pad(micros, 6)}+00`;
}
