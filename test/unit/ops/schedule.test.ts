import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScheduler, type Scheduler, type SchedulerLogger, type Timers } from '../../../src/ops/schedule.js';

/** A hand-driven clock and timer queue: advanceTo() fires due timers in order, moving the clock to each. */
class FakeTime implements Timers {
  private ms: number;
  private seq = 0;
  private readonly pending = new Map<number, { at: number; fn: () => void }>();

  constructor(start: string) {
    this.ms = Date.parse(start);
  }
  readonly clock = { now: (): Date => new Date(this.ms) };

  setTimeout(fn: () => void, ms: number): unknown {
    this.seq += 1;
    this.pending.set(this.seq, { at: this.ms + ms, fn });
    return this.seq;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  get pendingCount(): number {
    return this.pending.size;
  }

  async advanceTo(iso: string): Promise<void> {
    const target = Date.parse(iso);
    for (;;) {
      await settle();
      const next = [...this.pending.entries()].sort((a, b) => a[1].at - b[1].at)[0];
      if (next === undefined || next[1].at > target) break;
      this.pending.delete(next[0]);
      this.ms = Math.max(this.ms, next[1].at);
      next[1].fn();
    }
    this.ms = target;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

function recordingLogger(): SchedulerLogger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (_obj, msg) => lines.push(`info ${msg}`),
    warn: (_obj, msg) => lines.push(`warn ${msg}`),
    error: (_obj, msg) => lines.push(`error ${msg}`),
  };
}

describe('startScheduler with an injected clock', () => {
  let scheduler: Scheduler | undefined;
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
  });

  /** Starts a scheduler whose job records the (fake) time it started and finishes at once. */
  async function nightly(opts: { cron?: string; tz: string; start: string; lastSuccess: string | null }) {
    const time = new FakeTime(opts.start);
    const fired: string[] = [];
    const logger = recordingLogger();
    scheduler = startScheduler({
      cron: opts.cron ?? '30 2 * * *',
      timeZone: opts.tz,
      runNight: async () => { fired.push(time.clock.now().toISOString()); return 0; },
      lastSuccess: async () => (opts.lastSuccess === null ? null : new Date(opts.lastSuccess)),
      clock: time.clock,
      timers: time,
      logger,
    });
    await scheduler.started;
    return { time, fired, logger };
  }

  it('fires at 02:30 Europe/Berlin across the spring change, once right after the gap', async () => {
    const { time, fired } = await nightly({ tz: 'Europe/Berlin', start: '2026-03-27T12:00:00Z', lastSuccess: '2026-03-27T01:40:00Z' });
    await time.advanceTo('2026-03-31T12:00:00Z');
    expect(fired).toEqual([
      '2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z', '2026-03-31T00:30:00.000Z',
    ]);
  });

  it('fires at 02:30 Europe/Berlin across the autumn change, once in the repeated hour', async () => {
    const { time, fired } = await nightly({ tz: 'Europe/Berlin', start: '2026-10-23T12:00:00Z', lastSuccess: '2026-10-23T00:40:00Z' });
    await time.advanceTo('2026-10-26T12:00:00Z');
    expect(fired).toEqual(['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });

  it('fires at 02:30 America/New_York across both changes of 2026', async () => {
    const spring = await nightly({ tz: 'America/New_York', start: '2026-03-06T12:00:00Z', lastSuccess: '2026-03-06T08:00:00Z' });
    await spring.time.advanceTo('2026-03-09T12:00:00Z');
    expect(spring.fired).toEqual(['2026-03-07T07:30:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z']);
    await scheduler?.stop();

    const fall = await nightly({ cron: '30 1 * * *', tz: 'America/New_York', start: '2026-10-30T12:00:00Z', lastSuccess: '2026-10-30T06:00:00Z' });
    await fall.time.advanceTo('2026-11-02T12:00:00Z');
    expect(fall.fired).toEqual(['2026-10-31T05:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
  });

  it('catches up a missed night on start', async () => {
    const { fired, logger } = await nightly({ tz: 'Europe/Berlin', start: '2026-06-03T09:00:00Z', lastSuccess: '2026-06-01T00:45:00Z' });
    expect(fired).toEqual(['2026-06-03T09:00:00.000Z']);
    expect(logger.lines).toContain('info a scheduled run was missed; catching up now');
  });

  it('catches up when nothing ever succeeded', async () => {
    const { fired } = await nightly({ tz: 'UTC', start: '2026-06-03T09:00:00Z', lastSuccess: null });
    expect(fired).toEqual(['2026-06-03T09:00:00.000Z']);
  });

  it('does not catch up when the last success is after the latest fire time', async () => {
    const { time, fired } = await nightly({ tz: 'Europe/Berlin', start: '2026-06-03T09:00:00Z', lastSuccess: '2026-06-03T00:50:00Z' });
    await time.advanceTo('2026-06-03T23:59:00Z');
    expect(fired).toEqual([]);
  });

  it('never starts a run while the previous one is still running', async () => {
    const time = new FakeTime('2026-06-01T12:00:00Z');
    const logger = recordingLogger();
    const finishers: Array<() => void> = [];
    const runNight = vi.fn(() => new Promise<number>((resolve) => { finishers.push(() => resolve(0)); }));
    scheduler = startScheduler({
      cron: '30 2 * * *', timeZone: 'UTC', runNight, lastSuccess: async () => new Date('2026-06-01T03:00:00Z'),
      clock: time.clock, timers: time, logger,
    });
    await time.advanceTo('2026-06-03T12:00:00Z'); // the 06-02 run is still going at 06-03 02:30
    expect(runNight).toHaveBeenCalledTimes(1);
    expect(logger.lines).toContain('warn previous recon run is still in progress; skipping this one');
    finishers[0]!();
    await time.advanceTo('2026-06-04T12:00:00Z');
    expect(runNight).toHaveBeenCalledTimes(2);
    finishers[1]!();
  });

  it('stop() waits for the in-flight run and fires nothing afterwards', async () => {
    const time = new FakeTime('2026-06-01T12:00:00Z');
    let finish!: () => void;
    const runNight = vi.fn(() => new Promise<number>((resolve) => { finish = () => resolve(1); }));
    const s = startScheduler({
      cron: '30 2 * * *', timeZone: 'UTC', runNight, lastSuccess: async () => new Date('2026-06-01T03:00:00Z'),
      clock: time.clock, timers: time,
    });
    await time.advanceTo('2026-06-02T02:31:00Z');
    expect(runNight).toHaveBeenCalledTimes(1);

    let stopped = false;
    const stopping = s.stop().then(() => { stopped = true; });
    await settle();
    expect(stopped).toBe(false);
    finish();
    await stopping;
    await s.done;
    expect(time.pendingCount).toBe(0);
    await time.advanceTo('2026-06-05T00:00:00Z');
    expect(runNight).toHaveBeenCalledTimes(1);
  });

  it('logs a failed run and keeps the schedule', async () => {
    const time = new FakeTime('2026-06-01T12:00:00Z');
    const logger = recordingLogger();
    const runNight = vi.fn(async () => { throw new Error('boom'); });
    scheduler = startScheduler({
      cron: '30 2 * * *', timeZone: 'UTC', runNight, lastSuccess: async () => new Date('2026-06-01T03:00:00Z'),
      clock: time.clock, timers: time, logger,
    });
    await time.advanceTo('2026-06-03T12:00:00Z');
    expect(runNight).toHaveBeenCalledTimes(2);
    expect(logger.lines.filter((l) => l === 'error recon run failed')).toHaveLength(2);
  });

  it('rejects a bad RECON_CRON or RECON_TZ at start', () => {
    const base = { runNight: async () => 0, lastSuccess: async () => null, clock: { now: () => new Date() }, timers: new FakeTime('2026-01-01T00:00:00Z') };
    expect(() => startScheduler({ ...base, cron: '30 25 * * *', timeZone: 'UTC' })).toThrow(/RECON_CRON/);
    expect(() => startScheduler({ ...base, cron: '30 2 * * *', timeZone: 'Berlin' })).toThrow(/RECON_TZ/);
  });
});

describe('startScheduler with node-cron firing', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** node-cron reads Date and setTimeout, so vitest's fake timers drive it (and our fallback timer). */
  async function underNodeCron(start: string, until: string, tz: string): Promise<string[]> {
    vi.useFakeTimers({ now: new Date(start) });
    const fired: string[] = [];
    const s = startScheduler({
      cron: '30 2 * * *', timeZone: tz,
      runNight: async () => { fired.push(new Date().toISOString()); return 0; },
      lastSuccess: async () => new Date(start),
    });
    await s.started;
    await vi.advanceTimersByTimeAsync(Date.parse(until) - Date.parse(start));
    await s.stop();
    return fired.map((t) => t.slice(0, 16));
  }

  it('does not miss the spring-forward night that node-cron alone would skip', async () => {
    expect(await underNodeCron('2026-03-27T12:00:00Z', '2026-03-30T12:00:00Z', 'Europe/Berlin'))
      .toEqual(['2026-03-28T01:30', '2026-03-29T01:00', '2026-03-30T00:30']);
  });

  it('fires once in the repeated autumn hour', async () => {
    expect(await underNodeCron('2026-10-23T12:00:00Z', '2026-10-26T12:00:00Z', 'Europe/Berlin'))
      .toEqual(['2026-10-24T00:30', '2026-10-25T00:30', '2026-10-26T01:30']);
  });
});
