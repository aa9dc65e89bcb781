// Fault injection (docs/sandbox.md, Faults). Faults are about request order, so they draw from one
// sequential stream per sandbox; the same seed and the same request sequence give the same faults.
import { FAULT_KINDS, type FaultKind } from './kinds.js';
import { resolveFaults, type FaultOptions, type ResolvedFaults } from './options.js';
import { Rng, streamHash } from './rng.js';

export class FaultInjector {
  private config: ResolvedFaults;
  private readonly rng: Rng;
  private readonly latencyRng: Rng;
  private readonly linkRng: Rng;
  /** List pages served since appearWhilePaging was set: one hidden disbursement appears per page. */
  private pagesServed = 0;
  counts: Record<FaultKind, number> = emptyCounts();

  constructor(seed: string, config: ResolvedFaults, private readonly latencyMs: [number, number]) {
    this.config = config;
    this.rng = new Rng(streamHash(seed, 'faults', 0));
    this.latencyRng = new Rng(streamHash(seed, 'latency', 0));
    this.linkRng = new Rng(streamHash(seed, 'links', 0));
  }

  set(faults: FaultOptions): void {
    this.config = resolveFaults(faults);
    this.pagesServed = 0;
  }

  get appearWhilePaging(): number {
    return this.config.appearWhilePaging;
  }

  /** Entries every list envelope leaves out of its totals (the list lags its count). */
  get lagTotals(): number {
    return this.config.lagTotals;
  }

  /** The fault for the next API request, or null. */
  draw(): FaultKind | null {
    if (this.config.rate <= 0 || !(this.rng.next() < this.config.rate)) return null;
    const kind = this.rng.pick(this.config.kinds);
    this.counts[kind] += 1;
    return kind;
  }

  latency(): number {
    const [lo, hi] = this.latencyMs;
    return hi > lo ? this.latencyRng.float(lo, hi) : lo;
  }

  linksExpired(): boolean {
    return this.config.expiredLinkRate > 0 && this.linkRng.next() < this.config.expiredLinkRate;
  }

  /** How many of the appearWhilePaging newest disbursements are still hidden. */
  hidden(): number {
    return Math.max(0, this.config.appearWhilePaging - this.pagesServed);
  }

  listPageServed(): void {
    if (this.pagesServed < this.config.appearWhilePaging) this.pagesServed += 1;
  }

  resetCounts(): void {
    this.counts = emptyCounts();
  }
}

function emptyCounts(): Record<FaultKind, number> {
  return Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
}
