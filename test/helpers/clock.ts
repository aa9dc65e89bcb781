// Virtual time for tests that wait: `now` moves only when something sleeps (by that sleep, at once) or
// when the test moves it. A night run on it takes its real computing time, however long its waits; and
// every request sent before a pause arrives at the same instant, so a test needs no timing window.
import type { Clock } from '../../src/api/budget.js';

export class VirtualClock implements Clock {
  constructor(private t: number = Date.UTC(2026, 10, 25)) {}

  now = (): number => this.t;

  /** The test lets time pass. */
  advance(ms: number): void {
    this.t += ms;
  }

  sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    this.t += Math.max(0, ms);
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
}

/**
 * Discrete-event time for tests of work that runs side by side (requests in flight, each with its own
 * latency): every sleep is a timer on one timeline, and time moves to the next timer only once nothing
 * else can run, so the sleeps of concurrent tasks overlap as they would in real time (VirtualClock adds
 * them up). Deterministic: timers due at the same instant fire in the order they were set.
 */
export class SimulatedClock implements Clock {
  private readonly timers: Array<{ at: number; seq: number; fire: () => void }> = [];
  private seq = 0;

  constructor(private t: number = Date.UTC(2026, 10, 25)) {}

  now = (): number => this.t;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const aborted = () => Object.assign(new Error('aborted'), { name: 'AbortError' });
      if (signal?.aborted) return reject(aborted());
      const timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fire: resolve };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        const i = this.timers.indexOf(timer);
        if (i >= 0) this.timers.splice(i, 1);
        reject(aborted());
      }, { once: true });
    });

  /** Runs `work` to its end, moving time from timer to timer whenever nothing else can run. */
  async run<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    const outcome = work.finally(() => (settled = true));
    outcome.catch(() => undefined);
    for (;;) {
      // two turns of the loop: every promise that can settle without time passing has settled
      for (let i = 0; i < 2; i += 1) await new Promise<void>((r) => setImmediate(r));
      if (settled) return outcome;
      if (this.timers.length === 0) throw new Error('nothing can run and no timer is set: the work waits forever');
      let next = 0;
      for (let i = 1; i < this.timers.length; i += 1) {
        const a = this.timers[i]!;
        const b = this.timers[next]!;
        if (a.at < b.at || (a.at === b.at && a.seq < b.seq)) next = i;
      }
      const [timer] = this.timers.splice(next, 1);
      this.t = Math.max(this.t, timer!.at);
      timer!.fire();
    }
  }
}
