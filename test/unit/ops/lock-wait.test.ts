// an acknowledgement made during a run waits for the run's lock up to --wait, on an injected clock
// (no real waiting), then exits 3 as before; it says once whom it waits for.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, acquireLockWaiting, LockHeldError, type RunLock } from '../../../src/ops/lock.js';

let dir: string;
let held: RunLock | null = null;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'recon-lock-wait-'));
});
afterEach(async () => {
  await held?.release();
  rmSync(dir, { recursive: true, force: true });
});

function virtual() {
  let t = Date.parse('2026-11-27T03:00:00Z');
  const slept: number[] = [];
  return { now: () => new Date(t), sleep: async (ms: number) => { slept.push(ms); t += ms; }, slept, advance: (ms: number) => (t += ms) };
}

describe('acquireLockWaiting', () => {
  it('takes the lock once the run holding it ends, within the wait, and says once whom it waits for', async () => {
    const lockPath = path.join(dir, 'recon.duckdb.lock');
    held = await acquireLock(lockPath, { command: 'recon run' });
    const clock = virtual();
    const told: string[] = [];
    let looks = 0;
    const ours = await acquireLockWaiting(lockPath, { command: 'recon ack' }, {
      waitMs: 60_000, pollMs: 1000, onWait: (e) => told.push(e.message),
      sleep: async (ms) => {
        await clock.sleep(ms);
        if (++looks === 5) await held!.release(); // the run ends after five looks
      },
    }, { now: clock.now });
    expect(ours.holder.command).toBe('recon ack');
    expect(clock.slept).toEqual([1000, 1000, 1000, 1000, 1000]);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/holds the lock .*recon run/);
    await ours.release();
  });

  it('gives up with the holder\'s LockHeldError (exit 3) when the wait ends, and refuses at once without a wait', async () => {
    const lockPath = path.join(dir, 'recon.duckdb.lock');
    held = await acquireLock(lockPath, { command: 'recon run' });
    const clock = virtual();
    const waited = acquireLockWaiting(lockPath, { command: 'recon ack' }, { waitMs: 2500, pollMs: 1000, sleep: clock.sleep }, { now: clock.now });
    await expect(waited).rejects.toBeInstanceOf(LockHeldError);
    expect(clock.slept).toEqual([1000, 1000, 500]);
    const at = virtual();
    await expect(acquireLockWaiting(lockPath, { command: 'recon ack' }, { waitMs: 0, sleep: at.sleep }, { now: at.now })).rejects.toThrow(/holds the lock/);
    expect(at.slept).toEqual([]);
  });
});
