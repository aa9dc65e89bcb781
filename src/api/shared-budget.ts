// The host-wide request budget (--budget-file, issue #27). The service counts 500 requests a minute per
// IP, not per process (interface § Limits): two recon processes on one host (two stores, one service)
// each pacing to 450/min would together send 900. Every process given the same small file takes its turns
// from it: the file holds the next free moment on the host's schedule, one request every interval/limit
// ms, so all of them together stay at the limit in any sliding window (at most limit + 1), each getting
// its share by asking in turn. A 429 one of them receives closes the gate for all (blockedUntil).
// The file is changed only under a lock file beside it (created exclusively; a lock older than
// STALE_LOCK_MS is a crashed holder's and is taken over), and written by temp + rename.
import { openSync, closeSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { abortError, sleep } from './budget.js';

/** A lock held longer than this belongs to a process that died holding it. */
const STALE_LOCK_MS = 5_000;
/** Pause between attempts to take a lock another process holds (real time: it is I/O, not pacing). */
const LOCK_RETRY_MS = 2;
/** A schedule further ahead than this is not a queue of turns but a clock set back or a damaged file. */
const MAX_AHEAD_MS = 15 * 60_000;

interface State {
  /** The next free moment (ms since epoch) on the host's request schedule. */
  next: number;
  /** No request leaves before this (a 429 one process received). */
  blockedUntil: number;
}

export class SharedBudget {
  private readonly lockPath: string;

  constructor(readonly file: string) {
    this.lockPath = `${file}.lock`;
  }

  /**
   * Take the next turn on the host's schedule, one every `spacingMs`: resolves to the moment (ms since
   * epoch, by `now`) the request may leave; the caller waits until then.
   */
  async reserve(now: number, spacingMs: number, signal?: AbortSignal): Promise<number> {
    return this.locked(signal, (s) => {
      if (s.next > now + MAX_AHEAD_MS) s.next = now;
      if (s.blockedUntil > now + MAX_AHEAD_MS) s.blockedUntil = now;
      const at = Math.max(now, s.next, s.blockedUntil);
      s.next = at + spacingMs;
      return at;
    });
  }

  /** Close the gate for every process until `until` (a 429 received by this one). */
  async block(until: number): Promise<void> {
    await this.locked(undefined, (s) => {
      s.blockedUntil = Math.max(s.blockedUntil, until);
      s.next = Math.max(s.next, until);
      return 0;
    });
  }

  /** Until when a 429 has every process of the host paused (0: none); read without the lock (a look, not a turn). */
  blockedUntil(): number {
    return this.read().blockedUntil;
  }

  private async locked<T>(signal: AbortSignal | undefined, change: (s: State) => T): Promise<T> {
    await this.lock(signal);
    try {
      const state = this.read();
      const out = change(state);
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, `${JSON.stringify(state)}\n`);
      renameSync(tmp, this.file);
      return out;
    } finally {
      try {
        unlinkSync(this.lockPath);
      } catch {
        // taken over as stale by another process: nothing of ours to remove
      }
    }
  }

  private read(): State {
    try {
      const v = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<State>;
      const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
      return { next: num(v.next), blockedUntil: num(v.blockedUntil) };
    } catch {
      return { next: 0, blockedUntil: 0 }; // absent or unreadable: a fresh schedule
    }
  }

  private async lock(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw abortError();
      try {
        closeSync(openSync(this.lockPath, 'wx'));
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      try {
        if (Date.now() - statSync(this.lockPath).mtimeMs > STALE_LOCK_MS) unlinkSync(this.lockPath);
      } catch {
        // released meanwhile
      }
      await sleep(LOCK_RETRY_MS, signal);
    }
  }
}
