// Pure time arithmetic for the nightly schedule: 5-field cron expressions evaluated on the wall clock
// of an IANA zone. DST rules (chosen to match cron implementations that run skipped jobs once):
// - a wall time that does not exist (spring-forward gap) fires at the first instant after the gap;
// - a wall time that occurs twice (fall-back) fires once, at its first occurrence.
// node-cron 4.6 itself skips gap times and fires at the second occurrence; schedule.ts covers for it.
import { TerminalError } from '../errors.js';
import { validate as nodeCronValidate } from 'node-cron';

export class ScheduleConfigError extends TerminalError {
  override readonly name = 'ScheduleConfigError';
  constructor(readonly setting: 'RECON_CRON' | 'RECON_TZ', readonly value: string, detail: string) {
    super(`${setting}=${JSON.stringify(value)} ${detail}`);
  }
}

interface CronSpec {
  minutes: readonly number[];
  hours: readonly number[];
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
  /** Classic cron: when both day fields are restricted, a day matching either one fires. */
  dayOr: boolean;
}

const FIELDS = [
  { name: 'minute', min: 0, max: 59, names: [] as string[] },
  { name: 'hour', min: 0, max: 23, names: [] },
  { name: 'day-of-month', min: 1, max: 31, names: [] },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  },
  { name: 'day-of-week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
] as const;

const HINT = 'is not a valid 5-field cron expression (minute hour day-of-month month day-of-week), e.g. "30 2 * * *"';

/** Parses and validates a 5-field expression; throws ScheduleConfigError naming RECON_CRON. */
export function parseCron(expr: string): CronSpec {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5 || !nodeCronValidate(expr)) throw new ScheduleConfigError('RECON_CRON', expr, HINT);
  const sets = parts.map((part, i) => parseField(part, FIELDS[i]!, expr));
  const [minutes, hours, days, months, weekdays] = sets as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  if (weekdays.delete(7)) weekdays.add(0);
  return {
    minutes: [...minutes].sort((a, b) => a - b),
    hours: [...hours].sort((a, b) => a - b),
    days, months, weekdays,
    dayOr: !parts[2]!.startsWith('*') && !parts[4]!.startsWith('*'), // Vixie cron's DOM_STAR/DOW_STAR
  };
}

function parseField(part: string, field: (typeof FIELDS)[number], expr: string): Set<number> {
  const values = new Set<number>();
  const bad = (): never => {
    throw new ScheduleConfigError('RECON_CRON', expr, `has an invalid ${field.name} field "${part}"; ${HINT}`);
  };
  const toNumber = (token: string): number => {
    const named = (field.names as readonly string[]).indexOf(token.toLowerCase());
    const n = named >= 0 ? named + (field.name === 'month' ? 1 : 0) : /^\d+$/.test(token) ? Number(token) : NaN;
    return Number.isInteger(n) && n >= field.min && n <= field.max ? n : bad();
  };
  for (const item of part.split(',')) {
    const [range = '', stepText] = item.split('/');
    const step = stepText === undefined ? 1 : /^\d+$/.test(stepText) && Number(stepText) > 0 ? Number(stepText) : bad();
    let from: number;
    let to: number;
    if (range === '*') [from, to] = [field.min, field.max];
    else if (range.includes('-')) [from, to] = range.split('-').map(toNumber) as [number, number];
    else from = to = toNumber(range); // "5/10" never gets here: node-cron's validate rejects it
    if (from > to) bad();
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock formatter for a zone; throws ScheduleConfigError naming RECON_TZ for an unknown zone. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let fmt = formatters.get(timeZone);
  if (fmt === undefined) {
    try {
      fmt = new Intl.DateTimeFormat('en-US', {
        timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
        hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch {
      throw new ScheduleConfigError('RECON_TZ', timeZone, 'is not an IANA time zone, e.g. "Europe/Berlin" or "UTC"');
    }
    formatters.set(timeZone, fmt);
  }
  return fmt;
}

/** The zone's wall clock at `ms`, expressed as if it were UTC ("naive" milliseconds). */
function wallMs(ms: number, timeZone: string): number {
  const p: Record<string, number> = {};
  for (const { type, value } of formatterFor(timeZone).formatToParts(ms)) p[type] = Number(value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

function offsetMs(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallMs(whole, timeZone) - whole;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The instant a wall time happens: the first occurrence if repeated, the end of the gap if skipped. */
function wallTimeToInstant(wall: number, timeZone: string): number {
  const before = offsetMs(wall - DAY, timeZone);
  const after = offsetMs(wall + DAY, timeZone);
  const candidates = [wall - before, wall - after].filter((t) => wallMs(t, timeZone) === wall);
  if (candidates.length > 0) return Math.min(...candidates);
  // In the gap: the transition lies between these; find the first minute already on the new offset.
  let lo = Math.min(wall - before, wall - after);
  let hi = Math.max(wall - before, wall - after);
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (offsetMs(mid, timeZone) === after) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Eight years covers every satisfiable day pattern, including 29 February. */
const SEARCH_DAYS = 366 * 8 + 2;
/** Wall times this far before `after`'s wall time cannot map to an instant after it. */
const SLACK = 6 * 3_600_000;

/** The first fire time strictly after `after` (pure; throws ScheduleConfigError for bad input). */
export function nextRun(cronExpr: string, timeZone: string, after: Date): Date {
  const spec = parseCron(cronExpr);
  const afterMs = after.getTime();
  const afterWall = wallMs(afterMs, timeZone);
  let dayStart = Math.floor(afterWall / DAY) * DAY - DAY; // the day before: a gap can push times forward
  for (let i = 0; i < SEARCH_DAYS; i += 1, dayStart += DAY) {
    if (!dayMatches(spec, new Date(dayStart))) continue;
    for (const hour of spec.hours) {
      for (const minute of spec.minutes) {
        const wall = dayStart + hour * 3_600_000 + minute * MINUTE;
        if (wall < afterWall - SLACK) continue;
        const instant = wallTimeToInstant(wall, timeZone);
        if (instant > afterMs) return new Date(instant);
      }
    }
  }
  throw new ScheduleConfigError('RECON_CRON', cronExpr, 'never fires (no matching calendar day)');
}

function dayMatches(spec: CronSpec, day: Date): boolean {
  if (!spec.months.has(day.getUTCMonth() + 1)) return false;
  const dom = spec.days.has(day.getUTCDate());
  const dow = spec.weekdays.has(day.getUTCDay());
  return spec.dayOr ? dom || dow : dom && dow;
}

/**
 * Catch-up rule: overdue when nothing ever succeeded, or a fire time fell after the last success and
 * at or before now (a fire time exactly now counts, or starting at 02:30:00 would skip tonight).
 */
export function isOverdue(lastSuccess: Date | null, cronExpr: string, timeZone: string, now: Date): boolean {
  if (lastSuccess === null) return true;
  return nextRun(cronExpr, timeZone, lastSuccess).getTime() <= now.getTime();
}

/** Validates both settings up front so a bad RECON_CRON / RECON_TZ fails at start, not at 02:30. */
export function validateSchedule(cronExpr: string, timeZone: string): void {
  parseCron(cronExpr);
  formatterFor(timeZone);
}
