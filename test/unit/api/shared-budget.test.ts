// The host-wide schedule behind --budget-file: turns one spacing apart whichever process asks,
// a 429 one process received closes the gate for all, a crashed holder's lock is taken over.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SharedBudget } from '../../../src/api/shared-budget.js';
import { bootId, processStart } from '../../../src/api/budget-lock.js';
import { RequestBudget } from '../../../src/api/budget.js';
import { VirtualClock } from '../../helpers/clock.js';
import { busiestWindow } from '../../helpers/sliding-window.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function file(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'recon-shared-budget-'));
  dirs.push(d);
  return path.join(d, 'budget.json');
}

describe('SharedBudget', () => {
  it('hands out turns one spacing apart across every process sharing the file', async () => {
    const f = file();
    const [a, b] = [new SharedBudget(f), new SharedBudget(f)];
    const turns = [await a.reserve(1000, 125), await b.reserve(1000, 125), await a.reserve(1010, 125), await b.reserve(1500, 125)];
    expect(turns).toEqual([1000, 1125, 1250, 1500]);
  });

  it('a block one process records holds every process until it ends', async () => {
    const f = file();
    const [a, b] = [new SharedBudget(f), new SharedBudget(f)];
    await a.block(60_000);
    expect(await b.reserve(1000, 125)).toBe(60_000);
  });

  it('takes over a lock left by a process that died holding it, and starts afresh from a damaged file', async () => {
    const f = file();
    writeFileSync(f, 'not json');
    writeFileSync(`${f}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${f}.lock`, old, old);
    expect(await new SharedBudget(f).reserve(5000, 100)).toBe(5000);
  });

  it('a schedule far ahead of the clock (a clock set back) does not stall the run', async () => {
    const f = file();
    writeFileSync(f, JSON.stringify({ next: 10 ** 13, blockedUntil: 10 ** 13 }));
    expect(await new SharedBudget(f).reserve(5000, 100)).toBe(5000);
  });
});

describe('processes of different rates on one budget file', () => {
  const MINUTE = 60_000;
  const T0 = Date.UTC(2026, 10, 25, 2, 30);

  /** Every turn two processes take over `untilMs`: each asks again as soon as its own pace allows. */
  async function simulate(rates: number[], untilMs: number): Promise<number[][]> {
    const f = file();
    const budgets = rates.map(() => new SharedBudget(f));
    const spacing = rates.map((r) => MINUTE / r);
    const asks = rates.map(() => T0);
    const turns: number[][] = rates.map(() => []);
    for (;;) {
      const who = asks.indexOf(Math.min(...asks));
      if (asks[who]! >= T0 + untilMs) return turns;
      const at = await budgets[who]!.reserve(asks[who]!, spacing[who]!, undefined, MINUTE);
      turns[who]!.push(at - T0);
      asks[who] = Math.max(at, asks[who]!) + spacing[who]!; // its own bucket's pace after its turn
    }
  }

  it('a 6/min job beside a 450/min night: the night is not slowed by the job\'s spacing, and together they stay within 450 a minute', async () => {
    const [slow, fast] = (await simulate([6, 450], 3 * MINUTE)) as [number[], number[]];
    const inFirst20s = (t: number[]) => t.filter((x) => x < 20_000).length;
    expect(inFirst20s(fast)).toBeGreaterThanOrEqual(145); // 150 at 450/min, less the job's few turns
    expect(inFirst20s(slow)).toBe(2);
    expect(busiestWindow([...slow, ...fast], MINUTE)).toBeLessThanOrEqual(451);
    expect(busiestWindow(slow, MINUTE)).toBeLessThanOrEqual(7);
  });

  it('two processes at the same rate share it (as before): together one turn per spacing', async () => {
    const [a, b] = (await simulate([450, 450], 2 * MINUTE)) as [number[], number[]];
    expect(busiestWindow([...a, ...b], MINUTE)).toBeLessThanOrEqual(451);
    expect(Math.abs(a.length - b.length)).toBeLessThanOrEqual(1);
  });

  it('through RequestBudget on one clock: the night waits 20 s for its 150 requests, never a job\'s 10 s spacing', async () => {
    const f = file();
    const clock = new VirtualClock(T0);
    const job = new RequestBudget({ limit: 6, intervalMs: MINUTE, burst: 1, shared: new SharedBudget(f) }, clock);
    const night = new RequestBudget({ limit: 450, intervalMs: MINUTE, burst: 1, shared: new SharedBudget(f) }, clock);
    let nightWaited = 0;
    for (let i = 0; i < 150; i += 1) {
      if (i % 50 === 0) await job.acquire(); // the job's requests in between, each taking its turn on the file
      const before = clock.now();
      await night.acquire();
      nightWaited += clock.now() - before;
    }
    expect(nightWaited).toBeLessThan(150 * (MINUTE / 450) + 1000);
  });
});

describe('the budget file\'s lock is judged by its owner', () => {
  const lockOf = (f: string) => `${f}.lock`;
  const future = (p: string) => {
    const t = new Date(Date.now() + 3_600_000);
    utimesSync(p, t, t);
  };
  const owner = (pid: number, extra: Record<string, unknown> = {}) => JSON.stringify({ pid, host: hostname(), bootId: bootId(),
    start: processStart(pid), token: 'other', at: Date.now() + 3_600_000, ...extra });
  async function exited(): Promise<number> {
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => child.once('exit', resolve));
    return child.pid!;
  }

  it('an empty lock dated an hour ahead (a crash, then the clock set back) is taken over', async () => {
    const f = file();
    writeFileSync(lockOf(f), '');
    future(lockOf(f));
    expect(await new SharedBudget(f).reserve(5000, 100)).toBe(5000);
    expect(existsSync(lockOf(f))).toBe(false);
  });

  it('a lock dated an hour ahead whose owner is no longer running is taken over at once', async () => {
    const f = file();
    writeFileSync(lockOf(f), owner(await exited()));
    future(lockOf(f));
    expect(await new SharedBudget(f).reserve(5000, 100)).toBe(5000);
  });

  it('a lock taken before the host last started, or left by an earlier process with our pid, is taken over', async () => {
    for (const lock of [owner(process.pid, { bootId: 'another-boot' }), owner(process.pid)]) {
      const f = file();
      writeFileSync(lockOf(f), lock);
      future(lockOf(f));
      expect(await new SharedBudget(f).reserve(5000, 100)).toBe(5000);
    }
  });

  it('a live owner is waited for, and the wait says what it waits for; once the owner is gone the lock is taken', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const f = file();
      writeFileSync(lockOf(f), owner(child.pid!));
      future(lockOf(f));
      const told: Array<string | null> = [];
      const stop = new AbortController();
      const budget = new SharedBudget(f, { tellAfterMs: 0, onWait: (what) => {
        told.push(what);
        stop.abort();
      } });
      await expect(budget.reserve(5000, 100, stop.signal)).rejects.toMatchObject({ name: 'AbortError' });
      expect(told).toEqual([expect.stringMatching(new RegExp(`^waiting for the request budget's lock .*budget\\.json\\.lock, held by pid ${child.pid}, `
        + 'taken -?\\d+ s ago and still running; no request leaves until it is released'))]);
      expect(JSON.parse(readFileSync(lockOf(f), 'utf8'))).toMatchObject({ pid: child.pid }); // respected, not removed
      const exit = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exit;
      expect(await new SharedBudget(f).reserve(5000, 100)).toBe(5000);
    } finally {
      child.kill();
    }
  });

  it('two budgets in one process never take each other\'s lock', async () => {
    const f = file();
    const [a, b] = [new SharedBudget(f), new SharedBudget(f)];
    const turns = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).reserve(1000, 10)));
    expect(new Set(turns).size).toBe(40);
  });
});
