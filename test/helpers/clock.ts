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
