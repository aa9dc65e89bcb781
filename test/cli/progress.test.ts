// on call: the progress bar keeps time through a 429 block and says until when, and the rate it shows
// is the last minute's requests (or the requests so far and over how long), never extrapolated. The bar
// runs on an injected clock into a fake stream.
import { describe, expect, it } from 'vitest';
import { progressBar, progressLine, type SyncProgress } from '../../pipelines/cli/progress.js';
import { describePauses } from '../../pipelines/cli/summary.js';
import { PauseWatch } from '../../src/sync/pauses.js';

const T0 = Date.parse('2026-11-27T03:00:00Z');
const base = (over: Partial<SyncProgress> = {}): SyncProgress => ({ announced: 200, listed: 100, skipped: 20, done: 30, requests: 90, ...over });

describe('the progress line', () => {
  it('shows the requests of the window as sent: over 30 s it says so, it never turns them into a rate', () => {
    const line = progressLine(base(), { now: T0 + 30_000, elapsedMs: 30_000, pausedMs: 0, windowRequests: 90, windowMs: 30_000, budgetPerMinute: 450 });
    expect(line).toMatch(/ 50\/200 /);
    expect(line).toMatch(/20 unchanged/);
    expect(line).toMatch(/90 req in 30s \(450\/min budget\)/);
    expect(line).not.toMatch(/180\/min|643/);
    expect(line).toMatch(/30s elapsed, ETA 1m30s/);
    const minute = progressLine(base({ requests: 900 }), { now: T0 + 300_000, elapsedMs: 300_000, pausedMs: 0, windowRequests: 412, windowMs: 60_000, budgetPerMinute: 450 });
    expect(minute).toMatch(/412 req in the last min of 450\/min budget/);
  });

  it('during a 429 block says until when instead of an ETA, and reckons the ETA without the time blocked', () => {
    const until = T0 + 10 * 60_000;
    const line = progressLine(base({ pausedUntil: until }), {
      now: T0 + 3 * 60_000, elapsedMs: 4 * 60_000, pausedMs: 3 * 60_000, windowRequests: 0, windowMs: 60_000, budgetPerMinute: 450, timeZone: 'UTC',
    });
    expect(line).toMatch(/4m00s elapsed, paused: 429 block until 03:10 \(7m00s left\)/);
    expect(line).not.toMatch(/ETA/);
    // after it: 50 handled in 1 active minute of 11 → 150 more in 3 minutes, not in 33
    const after = progressLine(base({ pausedUntil: until }), {
      now: until + 1000, elapsedMs: 11 * 60_000, pausedMs: 10 * 60_000, windowRequests: 3, windowMs: 60_000, budgetPerMinute: 450,
    });
    expect(after).toMatch(/11m00s elapsed, ETA 3m00s/);
    expect(progressLine(base({ skipped: 170 }), { now: T0, elapsedMs: 1000, pausedMs: 0, windowRequests: 1, windowMs: 1000, budgetPerMinute: 450 }))
      .toMatch(/finishing$/);
  });

  it('says what the run waits for while another process holds the shared budget\'s lock, never a silent bar', () => {
    const line = progressLine(base({ waitingFor: 'the request budget /var/lib/recon/budget.json: its lock is held by pid 4242 since 03:01\u001b[2J' }), {
      now: T0 + 60_000, elapsedMs: 60_000, pausedMs: 0, windowRequests: 0, windowMs: 60_000, budgetPerMinute: 450,
    });
    expect(line).toMatch(/1m00s elapsed, waiting: the request budget \/var\/lib\/recon\/budget\.json: its lock is held by pid 4242 since 03:01\[2J$/);
    expect(line).not.toMatch(/ETA|\u001b/);
  });
});

describe('the progress bar on an injected clock', () => {
  function bar() {
    let t = T0;
    const out: string[] = [];
    const stream = { columns: 400, write: (s: string) => (out.push(s), true) };
    const b = progressBar(stream as never, 450, () => t, 'UTC');
    const shown = () => out.filter((s) => s.includes('disbursements')).at(-1)!.replace('\r\x1b[2K', '');
    return { b, shown, tick: (ms: number) => (t += ms), at: () => t };
  }

  it('keeps counting elapsed time through a 10-minute block and counts down to its end', () => {
    const { b, shown, tick, at } = bar();
    tick(60_000);
    b.update(base({ requests: 300 }));
    expect(shown()).toMatch(/1m00s elapsed, ETA/);
    const until = at() + 10 * 60_000;
    for (let s = 1; s <= 300; s += 1) {
      tick(1000);
      b.update(base({ requests: 301, pausedUntil: until })); // the sync step's tick: nothing moves
    }
    expect(shown()).toMatch(/6m00s elapsed, paused: 429 block until 03:11 \(5m00s left\)/);
    // the window holds the last minute only: the block sent one request in it
    expect(shown()).toMatch(/0 req in the last min/);
    for (let s = 1; s <= 301; s += 1) {
      tick(1000);
      b.update(base({ requests: 301, pausedUntil: until }));
    }
    tick(1000);
    b.update(base({ requests: 320, done: 31, pausedUntil: until }));
    expect(shown()).toMatch(/11m02s elapsed, ETA /);
    expect(shown()).not.toMatch(/paused/);
    // ~1 active minute for 51 handled: the ETA is minutes, not the 40 minutes the blocked time would give
    const eta = /ETA (\d+)m/.exec(shown())!;
    expect(Number(eta[1])).toBeLessThan(5);
  });

  it('never shows more requests than were sent in the first seconds, and a minute\'s worth once a minute has passed', () => {
    const { b, shown, tick } = bar();
    tick(2000);
    b.update(base({ requests: 15 }));
    expect(shown()).toMatch(/15 req in 2s \(450\/min budget\)/);
    for (let s = 0; s < 90; s += 1) {
      tick(1000);
      b.update(base({ requests: 15 + (s + 1) * 7 }));
    }
    // 7 a second: 420 in the last minute
    expect(shown()).toMatch(/420 req in the last min of 450\/min budget/);
  });

  it('counts the last minute only, however many updates a minute brings (20 a second for 3 minutes)', () => {
    const { b, shown, tick } = bar();
    let requests = 0;
    for (let i = 0; i < 3 * 60 * 20; i += 1) {
      tick(50);
      requests += i % 4 === 0 ? 1 : 0; // 5 a second: 300 a minute
      b.update(base({ requests }));
    }
    const n = Number(/(\d+) req in the last min/.exec(shown())![1]);
    expect(n).toBeGreaterThanOrEqual(299);
    expect(n).toBeLessThanOrEqual(301);
  });
});

describe('pauses in the run summary', () => {
  it('the watch folds a block extended by another 429 into one, and cuts the last at the end of the run', () => {
    const w = new PauseWatch();
    w.see(T0, 0);
    w.see(T0 + 1000, T0 + 601_000);
    w.see(T0 + 2000, T0 + 602_000); // a second 429 from a request already in flight
    expect(w.pausedUntil(T0 + 300_000)).toBe(T0 + 602_000);
    w.see(T0 + 900_000, T0 + 960_000);
    expect(w.pauses(T0 + 930_000)).toEqual([{ from: T0 + 1000, until: T0 + 602_000 }, { from: T0 + 900_000, until: T0 + 930_000 }]);
    expect(w.pausedMs(T0 + 930_000)).toBe(601_000 + 30_000);
    expect(w.pausedUntil(T0 + 961_000)).toBeNull();
  });

  it('names the blocks and their time against the run\'s', () => {
    const line = describePauses([{ from: T0 + 60_000, until: T0 + 660_000 }], 750_000);
    expect(line).toBe('paused: 1 429 block (03:01–03:11 UTC), 10 min 0 s of the run\'s 12 min 30 s — no request could leave; '
      + 'another program on this IP may share the service\'s 500/min');
    expect(describePauses([], 1000)).toBeNull();
  });
});
