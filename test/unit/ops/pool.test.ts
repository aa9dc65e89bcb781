// The sync's work queue (src/ops/pool.ts): bounded in what waits and in what runs, stopped by the first
// failure or the stop signal.
import { describe, expect, it } from 'vitest';
import { WorkPool, type MovingLimit } from '../../../src/ops/pool.js';

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('WorkPool', () => {
  it('runs at most `concurrency` items at once and keeps at most `maxQueued` waiting', async () => {
    const release: Array<() => void> = [];
    let running = 0;
    let most = 0;
    const pool = new WorkPool<number>(async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((r) => release.push(r));
      running -= 1;
    }, { concurrency: 2, maxQueued: 3 });
    let pushed = 0;
    const producer = (async () => {
      for (let i = 0; i < 10; i += 1) {
        await pool.push(i);
        pushed += 1;
      }
    })();
    for (let i = 0; i < 5; i += 1) await tick();
    expect(most).toBe(2);
    expect(pushed).toBeLessThanOrEqual(2 + 3); // two running, three waiting: the producer is held
    while (pushed < 10 || release.length > 0) {
      release.splice(0).forEach((r) => r());
      await tick();
    }
    await producer;
    await pool.close();
    expect(most).toBe(2);
  });

  it('stops at the first failure and close() throws it; the producer sees stopping', async () => {
    const done: number[] = [];
    const pool = new WorkPool<number>(async (n) => {
      if (n === 3) throw new Error('disk full');
      done.push(n);
    }, { concurrency: 1, maxQueued: 100 });
    for (let i = 0; i < 10 && !pool.stopping; i += 1) {
      await pool.push(i);
      await tick();
    }
    await expect(pool.close()).rejects.toThrow('disk full');
    expect(done).toEqual([0, 1, 2]);
    expect(pool.stopping).toBe(true);
  });

  it('takes nothing more once the stop signal fires', async () => {
    const controller = new AbortController();
    const done: number[] = [];
    const pool = new WorkPool<number>(async (n) => {
      done.push(n);
      if (n === 1) controller.abort();
      await tick();
    }, { concurrency: 1, maxQueued: 100, signal: controller.signal });
    for (let i = 0; i < 5; i += 1) await pool.push(i);
    await pool.close();
    expect(done).toEqual([0, 1]);
  });

  it('follows a moving limit: more at once when it rises, the surplus finishing its item when it falls', async () => {
    const listeners = new Set<() => void>();
    const onChange = (l: () => void) => (listeners.add(l), () => listeners.delete(l));
    const moving = { limit: 2, onChange } satisfies MovingLimit;
    const move = (n: number) => {
      moving.limit = n;
      listeners.forEach((l) => l());
    };
    const release: Array<() => void> = [];
    let running = 0;
    const pool = new WorkPool<number>(async () => {
      running += 1;
      await new Promise<void>((r) => release.push(r));
      running -= 1;
    }, { concurrency: moving, maxQueued: 100 });
    for (let i = 0; i < 20; i += 1) await pool.push(i);
    await tick();
    expect(running).toBe(2);
    expect(pool.saturated).toBe(true);
    move(5);
    await tick();
    expect(running).toBe(5);
    move(1);
    await tick();
    expect(running).toBe(5); // nothing is abandoned
    release.splice(0).forEach((r) => r());
    await tick();
    expect(running).toBe(1);
    while (release.length > 0 || running > 0) {
      release.splice(0).forEach((r) => r());
      await tick();
    }
    await pool.close();
    expect(pool.saturated).toBe(false);
    expect(listeners.size).toBe(0); // close() stops listening
  });
});
