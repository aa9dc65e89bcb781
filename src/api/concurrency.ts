// How many disbursements to read at once. The request budget sets the pace (src/api/budget.ts); enough
// requests must be in flight to keep it busy whatever the service's latency (at 450/min, 200 ms needs
// about 1.5 requests in flight, 5 s about 38), and a request waiting out a retry's back-off leaves its
// share to the others. Too many in flight only wait for the budget while holding their lines in memory.
//
// Little's law says how many the budget needs: its rate × the latency (at 450 per 6 s and 200 ms, 15). The
// answers of the first round, while work waits for a slot, move the limit there at once, so the night does
// not spend its first rounds growing towards it; a limit that wastes turns grows at least there too (at
// most 2× the start or a step: a budget the service cannot reach says nothing of how many it serves at once).
// A 429 or a cut in the first round ends that start: after it, the limit grows back by rounds.
//
// The controller works in rounds of about two round trips (and at least twenty of the budget's turns):
// - the budget made more turns than were asked for, nobody waited, and more work waits for a slot: the
//   limit grows in proportion to the shortfall (what was asked ÷ what the budget made), and at least to
//   what Little's law says, up to 2× a round;
// - a growth that brought no more requests (the process itself, or the service, was the limit) is undone
//   and not tried again for a while;
// - every request of a round waited for the budget behind a queue of several: one fewer;
// - a time-out in the round, or more than a fifth of the recent answers 5xx (a service in trouble, not
//   its usual few faults, which retries absorb), cuts it by a quarter; a 429 halves it at once.
// Nothing here sends or counts requests against the limit: the budget alone keeps every sliding minute
// within the rate (test/unit/api/concurrency.test.ts holds both on a simulated clock).
import type { Clock } from './budget.js';

/** What became of one attempt of a request (the budget counted it). */
export type AttemptOutcome = 'answered' | 'fault' | 'timeout' | 'limited';

/** The budget as the controller reads it. */
interface PacedBudget {
  /** Turns the budget makes per ms (its rate). */
  readonly perMs: number;
  /** Requests waiting for their turn. */
  readonly waiting: number;
  /** While a 429 block holds every request (ms since the epoch; in the past when open). */
  readonly blockedUntil: number;
  /** Told of every turn handed out: whether the request had to wait for it. */
  onGrant(listener: (waited: boolean) => void): void;
}

interface ConcurrencyOptions {
  initial: number;
  /** The most at once (--concurrency). */
  max: number;
  min?: number;
  clock: Clock;
}

/** The budget's turns over a span: how many it handed out, how many of them were waited for, and in how long. */
interface Turns {
  grants: number;
  waited: number;
  ms: number;
}

/** A growth, and the turns of the rounds after it so far. */
interface Probe extends Turns {
  /** The limit before the growth, and the growth (0.5: half as many again). */
  from: number;
  gain: number;
  /** Turns per ms in the two rounds before it. */
  rate: number;
  rounds: number;
}

/** The current round; its `ms` is set when it ends. */
interface Round extends Turns {
  start: number;
  /** The fewest requests seen waiting at a turn. */
  fewestWaiting: number;
  faults: number;
  timeouts: number;
}

/** Share of 5xx among recent answers above which the service is in trouble (the bench injects 5 %). */
const FAULT_SHARE = 0.2;
/** Weight of each answer in that share: about the last 32 answers count. */
const FAULT_WEIGHT = 1 / 32;
const LATENCY_WEIGHT = 1 / 16;
/** Rounds without growth after one that brought nothing. */
const HOLD_ROUNDS = 20;
const MIN_ROUND_MS = 100;
/** Growth from a few at once is not judged: it costs little, and one disbursement's requests come in bursts. */
const PROBE_FROM = 8;

export class AdaptiveConcurrency {
  private current: number;
  private readonly min: number;
  private readonly listeners = new Set<() => void>();
  private round: Round;
  private latencyMs = 0;
  private faultShare = 0;
  /** The last growth, judged by the two rounds after it. */
  private probe: Probe | null = null;
  /** The round before the current one. */
  private last: Turns | null = null;
  private holdUntil = 0;
  private lastHalving = -Infinity;
  private answers = 0;
  /** Until a round with work waiting is judged, the answers set the limit where it starts. */
  private starting = true;
  /** Whether work waits for a slot (the limit is what holds it back); set by the pool that uses the limit. */
  private bound: () => boolean = () => true;

  constructor(private readonly budget: PacedBudget, private readonly o: ConcurrencyOptions) {
    this.min = Math.max(1, o.min ?? 1);
    this.current = clamp(o.initial, this.min, Math.max(this.min, o.max));
    this.round = this.freshRound(o.clock.now());
    budget.onGrant((waited) => this.granted(waited));
  }

  get limit(): number {
    return this.current;
  }

  /** Called whenever the limit changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The pool now using the limit says through this whether work waits for a slot. */
  boundBy(waitsForSlot: () => boolean): void {
    this.bound = waitsForSlot;
  }

  /** One attempt of a request ended (answered in `latencyMs`, or failed). */
  settled(outcome: AttemptOutcome, latencyMs: number): void {
    if (outcome === 'answered') {
      // the mean of the first answers, then a moving average: one quick first answer does not set the start
      this.answers += 1;
      this.latencyMs += (latencyMs - this.latencyMs) * Math.max(1 / this.answers, LATENCY_WEIGHT);
      if (this.starting && this.bound()) {
        this.setLimit(Math.max(this.current, Math.min(2 * this.o.initial, this.needed())));
      }
    }
    if (outcome === 'answered' || outcome === 'fault') {
      this.faultShare += ((outcome === 'fault' ? 1 : 0) - this.faultShare) * FAULT_WEIGHT;
    }
    if (outcome === 'fault') this.round.faults += 1;
    if (outcome === 'timeout') this.round.timeouts += 1;
    if (outcome === 'limited') this.halve();
    this.maybeEndRound();
  }

  private granted(waited: boolean): void {
    const r = this.round;
    // a round begins with its first request: the time before (the store opened, the list's first page
    // awaited, the sample chosen) is not time the budget waited for requests that could have been asked
    if (r.grants === 0) r.start = this.o.clock.now();
    r.grants += 1;
    if (waited) r.waited += 1;
    r.fewestWaiting = Math.min(r.fewestWaiting, this.budget.waiting);
    this.maybeEndRound();
  }

  /** Requests in flight that keep the budget busy at the latency seen (Little's law: rate × latency). */
  private needed(): number {
    return Math.ceil(this.budget.perMs * this.latencyMs);
  }

  /** About two round trips, and at least twenty of the budget's turns (a round long enough to count). */
  private roundMs(): number {
    return Math.max(MIN_ROUND_MS, 2 * this.latencyMs, 20 / this.budget.perMs);
  }

  private maybeEndRound(): void {
    const now = this.o.clock.now();
    const r = this.round;
    if (r.grants === 0 || now - r.start < this.roundMs()) return;
    r.ms = now - r.start;
    this.round = this.freshRound(now);
    // a round with the gate closed (a 429 block) says nothing about what is asked
    if (this.budget.blockedUntil <= r.start) this.judge(r, now);
  }

  private judge(r: Round, now: number): void {
    if (this.bound()) this.starting = false;
    const before = this.last;
    this.last = r;
    // at a few requests at once the last answers span minutes: a round without a fault halves their weight
    if (r.faults === 0) this.faultShare /= 2;
    if (r.timeouts > 0 || this.faultShare > FAULT_SHARE) {
      this.probe = null;
      this.starting = false;
      return this.setLimit(Math.floor(this.current * 0.75));
    }
    if (this.probe) return this.judgeProbe(this.probe, r, now);
    const rate = r.grants / r.ms;
    const asked = rate / this.budget.perMs;
    if (r.waited * 2 < r.grants && asked < 0.98 && now >= this.holdUntil && this.current < this.o.max && this.bound()) {
      const grown = Math.max(this.current + 1, Math.ceil(this.current / Math.max(asked, 0.5)), this.needed());
      const next = Math.min(this.o.max, 2 * this.current, grown);
      // a growth of half or more is judged by the two rounds after it against the two before
      const gain = next / this.current - 1;
      if (gain >= 0.5 && this.current >= PROBE_FROM) {
        const grants = r.grants + (before?.grants ?? 0);
        const rate = grants / (r.ms + (before?.ms ?? 0));
        this.probe = { from: this.current, gain, rate, rounds: 0, grants: 0, waited: 0, ms: 0 };
      }
      return this.setLimit(next);
    }
    // more than a round trip's requests (the budget's rate × the latency) waiting all round long: one fewer
    if (r.grants > 0 && r.waited === r.grants && r.fewestWaiting > Math.max(3, this.budget.perMs * this.latencyMs)) {
      this.setLimit(this.current - 1);
    }
  }

  /**
   * A growth is undone when the budget still had turns to spare and the rate rose by less than a third of
   * the growth (of what the budget leaves room for: a rate the budget caps cannot rise further).
   */
  private judgeProbe(probe: Probe, r: Round, now: number): void {
    probe.rounds += 1;
    probe.grants += r.grants;
    probe.waited += r.waited;
    probe.ms += r.ms;
    if (probe.rounds < 2) return;
    this.probe = null;
    const rate = probe.grants / probe.ms;
    const room = Math.min(probe.gain, this.budget.perMs / probe.rate - 1);
    if (probe.waited * 2 < probe.grants && rate < probe.rate * (1 + room / 3)) {
      this.holdUntil = now + HOLD_ROUNDS * this.roundMs();
      this.setLimit(probe.from);
    }
  }

  /** A 429: half as many at once; once per round, however many requests it answered. */
  private halve(): void {
    const now = this.o.clock.now();
    if (now - this.lastHalving < this.roundMs()) return;
    this.lastHalving = now;
    this.probe = null;
    this.starting = false;
    this.setLimit(Math.floor(this.current / 2));
  }

  private setLimit(n: number): void {
    const next = clamp(n, this.min, Math.max(this.min, this.o.max));
    if (next === this.current) return;
    this.current = next;
    for (const listener of this.listeners) listener();
  }

  private freshRound(start: number): Round {
    return { start, grants: 0, waited: 0, ms: 0, fewestWaiting: Infinity, faults: 0, timeouts: 0 };
  }
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.round(n)));
}
