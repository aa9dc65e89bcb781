// The 429 blocks a sync sat through: the run's summary names them and their time, and the progress
// bar says "paused … until HH:MM" instead of freezing. Observed from the request budget's gate (when it
// is closed, and until when) as it closes, on every progress event and once a second.

export interface Pause {
  /** ms since the epoch: when the block was first seen, and when the gate reopens. */
  from: number;
  until: number;
}

/** Blocks kept: a run stops after 50 429s (src/api/client.ts), so this bound is never the one that bites. */
const MAX_PAUSES = 100;

export class PauseWatch {
  private readonly list: Pause[] = [];

  /** The gate is closed until `blockedUntil` (0 or past: open) at `now`. */
  see(now: number, blockedUntil: number): void {
    if (blockedUntil <= now) return;
    const last = this.list[this.list.length - 1];
    if (last && now <= last.until) {
      last.until = Math.max(last.until, blockedUntil); // the same block, extended by another 429
      return;
    }
    if (this.list.length < MAX_PAUSES) this.list.push({ from: now, until: blockedUntil });
  }

  /** The block in force at `now`, if any: when it ends. */
  pausedUntil(now: number): number | null {
    const last = this.list[this.list.length - 1];
    return last && last.from <= now && now < last.until ? last.until : null;
  }

  /** The blocks so far, each cut at `now` (a run stopped during a block did not sit through its rest). */
  pauses(now: number): Pause[] {
    return this.list.filter((p) => p.from <= now).map((p) => ({ from: p.from, until: Math.min(p.until, now) }));
  }

  /** Time spent blocked up to `now`. */
  pausedMs(now: number): number {
    return this.pauses(now).reduce((ms, p) => ms + (p.until - p.from), 0);
  }
}
