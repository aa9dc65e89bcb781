// The adaptive concurrency (src/api/concurrency.ts) with the real request budget and worker pool, on a
// simulated clock: each disbursement reads three lists at once, then its files, then a download, every
// request through the budget, with the client's retry policy (src/api/retry.ts) after a fault. The service
// is a seeded model (latency, 5xx, time-outs, 429, a limit on what it serves at once). Every scenario also
// holds the budget itself: no sliding window ever sees more than the budget's rate plus its burst.
import { describe, expect, it } from 'vitest';
import { RequestBudget } from '../../../src/api/budget.js';
import { AdaptiveConcurrency, type AttemptOutcome } from '../../../src/api/concurrency.js';
import { DEFAULT_RETRY, backoffMs } from '../../../src/api/retry.js';
import { WorkPool } from '../../../src/ops/pool.js';
import { SimulatedClock } from '../../helpers/clock.js';
import { testRandom } from '../../helpers/seed.js';

const MINUTE = 60_000;

interface Service {
  /** How long the attempt sent at `t` takes, and how it ends. */
  answer(t: number, random: () => number): { ms: number; outcome: AttemptOutcome };
  /** At most this many served at once; the rest wait in the service's own queue. */
  slots?: number;
}

interface Scenario {
  name: string;
  service: Service;
  disbursements: number;
  perMinute?: number;
  intervalMs?: number;
  initial: number;
  max: number;
  /** A fixed number at once instead of the controller (the comparison). */
  fixed?: number;
  retryBaseMs?: number;
  blockMs?: number;
}

interface Outcome {
  sends: number[];
  limits: Array<[number, number]>;
  start: number;
  end: number;
  budget: RequestBudget;
}

const uniform = (lo: number, hi: number) => (random: () => number) => lo + (hi - lo) * random();

async function simulate(s: Scenario, random: () => number): Promise<Outcome> {
  const clock = new SimulatedClock();
  const start = clock.now();
  const intervalMs = s.intervalMs ?? MINUTE;
  const budget = new RequestBudget({ limit: s.perMinute ?? 450, intervalMs }, clock);
  const pace = new AdaptiveConcurrency(budget, { initial: s.initial, max: s.max, clock });
  const sends: number[] = [];
  const limits: Array<[number, number]> = [[start, pace.limit]];
  pace.onChange(() => limits.push([clock.now(), pace.limit]));
  const baseMs = s.retryBaseMs ?? DEFAULT_RETRY.baseMs;
  const retry = { ...DEFAULT_RETRY, baseMs, capMs: baseMs * 20 };
  let serving = 0;
  const queued: Array<() => void> = [];

  const attempt = async (): Promise<AttemptOutcome> => {
    await budget.acquire();
    const sentAt = clock.now();
    sends.push(sentAt);
    if (s.service.slots !== undefined && serving >= s.service.slots) await new Promise<void>((r) => queued.push(r));
    serving += 1;
    const { ms, outcome } = s.service.answer(clock.now(), random);
    await clock.sleep(ms);
    serving -= 1;
    queued.shift()?.();
    pace.settled(outcome, clock.now() - sentAt);
    return outcome;
  };
  // as the client: a 429 closes the budget's gate for the block and is not an attempt; faults are retried
  const request = async (): Promise<void> => {
    for (let n = 1; ; n += 1) {
      const outcome = await attempt();
      if (outcome === 'answered') return;
      if (outcome === 'limited') {
        budget.block(clock.now() + (s.blockMs ?? 10 * MINUTE));
        n -= 1;
        continue;
      }
      if (n >= retry.maxAttempts) throw new Error('a request failed every attempt');
      await clock.sleep(backoffMs(n, retry, random));
    }
  };
  const read = async () => {
    await Promise.all([request(), request(), request()]); // payouts, refunds, adjustments
    await request(); // files
    await request(); // the download
  };
  const pool = new WorkPool<number>(read, { concurrency: s.fixed ?? pace, maxQueued: 4 * s.max });
  if (s.fixed === undefined) pace.boundBy(() => pool.saturated);
  await clock.run((async () => {
    for (let i = 0; i < s.disbursements; i += 1) await pool.push(i);
    await pool.close();
  })());
  return { sends, limits, start, end: clock.now(), budget };
}

/** The most sends in any window of `ms` (what the service counts). */
function busiest(sends: number[], ms: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < sends.length; i += 1) {
    while (sends[i]! - sends[j]! >= ms) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/** Sends in each whole window from `from` until the last send (the unfinished tail left out). */
function perWindow(o: Outcome, ms: number, from = 1): number[] {
  const counts: number[] = [];
  const first = o.sends[0]!;
  const whole = Math.floor((o.sends.at(-1)! - first) / ms);
  for (let w = from; w < whole; w += 1) {
    counts.push(o.sends.filter((t) => t >= first + w * ms && t < first + (w + 1) * ms).length);
  }
  return counts;
}

/** The limit in force at `t`. */
function limitAt(o: Outcome, t: number): number {
  let limit = o.limits[0]![1];
  for (const [at, l] of o.limits) if (at <= t) limit = l;
  return limit;
}

const answered = (latency: (r: () => number) => number): Service => ({
  answer: (_t, r) => ({ ms: latency(r), outcome: 'answered' }),
});

/** 100–300 ms, 5 % of the answers a 5xx (what the bench's sandbox serves). */
const fivePercentFaults: Service = {
  answer: (_t, r) => ({ ms: uniform(100, 300)(r), outcome: r() < 0.05 ? 'fault' : 'answered' }),
};

describe('adaptive concurrency on the request budget', () => {
  it('ramps up under high latency until the budget is used, where a fixed few leave most of it idle', async () => {
    const { next } = testRandom('concurrency-latency');
    const service = answered(uniform(2000, 4000));
    const scenario: Scenario = { name: 'latency', service, disbursements: 500, initial: 4, max: 64 };
    const o = await simulate(scenario, next);
    // 7.5 a second × 3 s: about 22 requests in flight, 13 disbursements at five requests in three steps
    for (const n of perWindow(o, MINUTE)) expect(n).toBeGreaterThanOrEqual(0.97 * 450);
    expect(limitAt(o, o.start + 2 * MINUTE)).toBeGreaterThanOrEqual(12);
    expect(busiest(o.sends, MINUTE)).toBeLessThanOrEqual(480);
    const fixed = await simulate({ ...scenario, fixed: 4, disbursements: 150 }, next);
    for (const n of perWindow(fixed, MINUTE)) expect(n).toBeLessThan(0.5 * 450);
  });

  it('uses the whole budget under 5 % faults, their retries included, with few disbursements at once', async () => {
    const { next } = testRandom('concurrency-faults');
    const service = fivePercentFaults;
    const o = await simulate({ name: 'faults', service, disbursements: 500, initial: 8, max: 32 }, next);
    for (const n of perWindow(o, MINUTE)) expect(n).toBeGreaterThanOrEqual(0.97 * 450);
    expect(busiest(o.sends, MINUTE)).toBeLessThanOrEqual(480);
    // 7.5 a second × 0.2 s: two requests in flight; the queue at the budget is trimmed, not kept at 8
    expect(limitAt(o, o.end)).toBeLessThanOrEqual(4);
  });

  it('keeps a compressed window busy (the bench: 450 per 6 s, 100–300 ms, 5 % faults, 50 ms back-off)', async () => {
    const { next } = testRandom('concurrency-compressed');
    const service = fivePercentFaults;
    const scenario = { name: 'compressed', service, disbursements: 700, intervalMs: 6000, initial: 8, max: 32, retryBaseMs: 50 };
    const o = await simulate(scenario, next);
    for (const n of perWindow(o, 6000)) expect(n).toBeGreaterThanOrEqual(0.97 * 450);
    expect(busiest(o.sends, 6000)).toBeLessThanOrEqual(480);
  });

  it("starts where Little's law puts it (the budget's rate × the latency): the first window is used too", async () => {
    const { next } = testRandom('concurrency-start');
    const service = fivePercentFaults;
    const scenario = { name: 'start', service, disbursements: 400, intervalMs: 6000, initial: 8, max: 32 };
    const o = await simulate({ ...scenario, retryBaseMs: 50 }, next);
    // 0.075 a ms × 100–300 ms: 8 to 23 in flight; the limit moves at the first answers, not rounds later
    const firstAnswer = o.start + 300;
    expect(limitAt(o, firstAnswer)).toBeGreaterThan(8);
    expect(limitAt(o, firstAnswer)).toBeLessThanOrEqual(16);
    // the first window from the first request on, not only the windows after it
    const [first] = perWindow(o, 6000, 0);
    expect(first).toBeGreaterThanOrEqual(0.97 * 450);
    expect(busiest(o.sends, 6000)).toBeLessThanOrEqual(480);
  });

  it('backs off when many answers are 5xx, and comes back once the service recovers', async () => {
    const { next } = testRandom('concurrency-5xx');
    const t0 = Date.UTC(2026, 10, 25);
    const storm = (t: number) => t >= t0 + 2 * MINUTE && t < t0 + 3 * MINUTE;
    const service: Service = {
      answer: (t, r) => ({ ms: uniform(2000, 4000)(r), outcome: r() < (storm(t) ? 0.6 : 0) ? 'fault' : 'answered' }),
    };
    const o = await simulate({ name: '5xx', service, disbursements: 700, initial: 4, max: 64 }, next);
    const before = limitAt(o, t0 + 2 * MINUTE);
    expect(before).toBeGreaterThanOrEqual(12);
    expect(Math.min(...o.limits.filter(([t]) => storm(t)).map(([, l]) => l))).toBeLessThanOrEqual(before / 2);
    expect(limitAt(o, t0 + 5 * MINUTE)).toBeGreaterThanOrEqual(0.75 * before);
    expect(busiest(o.sends, MINUTE)).toBeLessThanOrEqual(480);
  });

  it('backs off on time-outs', async () => {
    const { next } = testRandom('concurrency-timeouts');
    const t0 = Date.UTC(2026, 10, 25);
    const slow = (t: number) => t >= t0 + 2 * MINUTE && t < t0 + 3 * MINUTE;
    const service: Service = {
      answer: (t, r) => (slow(t) && r() < 0.2
        ? { ms: 10_000, outcome: 'timeout' }
        : { ms: uniform(2000, 4000)(r), outcome: 'answered' }),
    };
    const o = await simulate({ name: 'timeouts', service, disbursements: 600, initial: 4, max: 64 }, next);
    const before = limitAt(o, t0 + 2 * MINUTE);
    expect(before).toBeGreaterThanOrEqual(12);
    expect(Math.min(...o.limits.filter(([t]) => slow(t)).map(([, l]) => l))).toBeLessThanOrEqual(before / 2);
    expect(busiest(o.sends, MINUTE)).toBeLessThanOrEqual(480);
  });

  it('halves at a 429 and sends nothing while the block lasts', async () => {
    const { next } = testRandom('concurrency-429');
    const t0 = Date.UTC(2026, 10, 25);
    const limitedAt = t0 + 2 * MINUTE;
    let refused: number | null = null;
    const service: Service = {
      answer: (t, r) => {
        if (refused === null && t >= limitedAt) {
          refused = t;
          return { ms: 50, outcome: 'limited' };
        }
        return { ms: uniform(2000, 4000)(r), outcome: 'answered' };
      },
    };
    const o = await simulate({ name: '429', service, disbursements: 600, initial: 4, max: 64, blockMs: MINUTE }, next);
    const heard = refused! + 50;
    const before = limitAt(o, heard - 1);
    expect(limitAt(o, heard)).toBe(Math.floor(before / 2));
    // what left before the client heard of it is the service's to refuse; nothing after until the block ends
    expect(o.sends.filter((t) => t > heard && t < heard + MINUTE)).toEqual([]);
    expect(o.sends.some((t) => t >= heard + MINUTE)).toBe(true);
    expect(busiest(o.sends, MINUTE)).toBeLessThanOrEqual(480);
  });

  it('does not start from the first answers again after a 429 in the first round', async () => {
    const { next } = testRandom('concurrency-early-429');
    let refused: number | null = null;
    const service: Service = {
      answer: (t, r) => {
        if (refused === null) {
          refused = t;
          return { ms: 50, outcome: 'limited' };
        }
        return { ms: uniform(100, 300)(r), outcome: 'answered' };
      },
    };
    const scenario = { name: 'early 429', service, disbursements: 300, intervalMs: 6000, initial: 8, max: 32 };
    const o = await simulate({ ...scenario, blockMs: 6000 }, next);
    const heard = refused! + 50;
    expect(limitAt(o, heard)).toBe(4);
    // the block over, Little's law would say 15; the halved limit grows by rounds, at most 2× each
    const reopened = heard + 6000;
    const early = o.limits.filter(([t]) => t >= heard && t < reopened + 350).map(([, l]) => l);
    expect(Math.max(...early)).toBeLessThanOrEqual(4);
    expect(busiest(o.sends, 6000)).toBeLessThanOrEqual(480);
  });

  it('with a budget it cannot reach, keeps no more at once than the service can serve', async () => {
    const { next } = testRandom('concurrency-saturated');
    // serves 12 at once, 40–60 ms each: past 12 requests in flight, more at once brings nothing
    const service: Service = { ...answered(uniform(40, 60)), slots: 12 };
    const scenario = { name: 'saturated', service, disbursements: 3000, perMinute: 10_000_000, initial: 4, max: 64 };
    const o = await simulate(scenario, next);
    // time-weighted: most of the run at or below what saturates the service (8 disbursements ≈ 13 requests)
    let below = 0;
    for (let i = 0; i < o.limits.length; i += 1) {
      const [at, l] = o.limits[i]!;
      const until = o.limits[i + 1]?.[0] ?? o.end;
      if (l <= 16) below += until - at;
    }
    expect(below / (o.end - o.start)).toBeGreaterThan(0.8);
    expect(Math.max(...o.limits.map(([, l]) => l))).toBeLessThan(64);
  });
});
