// Which already-read disbursements a night reads again in depth. Re-reading every
// disbursement of the lookback window every night was ~85 % of a night's requests; instead one is read
// again when
//   - its list record changed (the fingerprint of its list fields, recordHash in src/store/bundle.ts), or
//   - its rotation slot comes round: slot = hash(id) mod N, due on the nights whose UTC day number mod N
//     equals it, so each night reads about 1/N of the window and N consecutive nights read all of it, or
//   - its last deep read (deep_reads) is N nights old or older (a missed night does not stretch the bound), or
//     unknown: a store written before deep_reads existed has no row for what it read then, and a weekly
//     run on a day that is not a disbursement's slot would never come round to it, or
//   - it has left the window without a deep read since the run that first wrote it, and that read is N
//     nights old (owedAfterWindow). The first read takes one of the window's nights: with --lookback-days
//     equal to N only N - 1 nightly runs after it still see the disbursement in the window, so the one
//     whose slot is the first night's own came round only after the window had ended, and a seventh of
//     what was delivered was never read again at all.
// Guarantee: a disbursement delivered within --lookback-days is read in depth on the first run N days or
// more after its last deep read (or at once when that is unknown, or after the run's clock), whatever
// wrote the store and however the runs fall; with nightly runs its slot comes round first. One first read
// while it was in the window is followed by another within N nights, in the window or just after it. So a
// child restated without a change to the list record after its first read is caught within N nights, or
// on the first run after. Past the window a disbursement is read at most once, so the window bounds the cost.
// N was chosen by measurement (bench `nights`, docs/performance.md).

/** The rotation period N in nights. */
export const ROTATION_NIGHTS = 7;

const DAY_MS = 86_400_000;
/** A deep read counts as N nights old from N days less half a day (the night's start time may drift). */
const DRIFT_MS = DAY_MS / 2;

/** FNV-1a of the id: a stable, evenly spread slot that needs nothing stored. */
function hashId(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function rotationSlot(id: string, nights: number = ROTATION_NIGHTS): number {
  return hashId(id) % Math.max(1, nights);
}

/** Whether the night at `nowMs` is this disbursement's rotation slot. */
export function slotDue(id: string, nowMs: number, nights: number = ROTATION_NIGHTS): boolean {
  return rotationSlot(id, nights) === Math.floor(nowMs / DAY_MS) % Math.max(1, nights);
}

/**
 * Whether an unchanged disbursement of the lookback window is read in depth tonight: its last deep read
 * is unknown, N nights old or older, or later than the run's clock (a clock set back: its age is unknown),
 * or its slot comes round.
 */
export function rotationDue(
  id: string,
  nowMs: number,
  lastDeepReadMs: number | undefined,
  nights: number = ROTATION_NIGHTS,
): boolean {
  if (lastDeepReadMs === undefined || lastDeepReadMs > nowMs + DRIFT_MS) return true;
  if (nowMs - lastDeepReadMs >= nights * DAY_MS - DRIFT_MS) return true;
  return slotDue(id, nowMs, nights);
}

/**
 * Whether a disbursement that has left the lookback window is read once more: its only deep read (the one
 * that first wrote it, `firstReadMs`) was made while it was in the window and is N nights old. A backfill of
 * older months was read after their window and owes nothing; once this read is made, the last deep read is
 * no longer the first one, so it is owed once, never again.
 */
export function owedAfterWindow(
  nowMs: number,
  deliveredMs: number,
  lookbackDays: number,
  firstReadMs: number,
  nights: number = ROTATION_NIGHTS,
): boolean {
  if (firstReadMs > deliveredMs + lookbackDays * DAY_MS) return false;
  return nowMs - firstReadMs >= nights * DAY_MS - DRIFT_MS;
}
