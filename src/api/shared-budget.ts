// The host-wide request budget (--budget-file). The service counts 500 requests a minute per IP, not per
// process (interface § Limits): two recon processes on one host (two stores, one service) each pacing to
// 450/min would together send 900. Every process given the same small file takes its turns from it: the
// file holds the next free moment on the host's schedule, so all of them together stay within the limit in
// any sliding window (at most limit + 1), each getting its share by asking in turn. A 429 one of them
// receives closes the gate for all (blockedUntil).
// Each process paces itself at its own --rate-per-minute (its RequestBudget); the file only spaces the
// host's requests, one every interval/limit of the fastest process that asked within the last interval,
// after the last turn handed out. A turn never pushes the others by the taker's own spacing: a job allowed
// 6 a minute used to move the shared turn 10 s ahead at each of its requests, and a 450/min night beside
// it sent 2 requests in 20 s. So together they stay within the largest --rate-per-minute among them, and a
// slow process takes only its own turns.
// The file is changed only under the lock beside it (src/api/budget-lock.ts), and written by temp + rename.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { takeBudgetLock, type LockOptions } from './budget-lock.js';

/** A schedule further ahead than this is not a queue of turns but a clock set back or a damaged file. */
const MAX_AHEAD_MS = 15 * 60_000;
/** Processes remembered in the file at most (a bound on its size, whatever runs on the host). */
const MAX_MEMBERS = 64;

interface Member {
  /** The member's own spacing (interval / its --rate-per-minute), ms. */
  spacingMs: number;
  /** When it last took a turn (ms since epoch). */
  seen: number;
}

interface State {
  /** The last turn handed out (ms since epoch): the next one is a host spacing after it. */
  last: number;
  /** The next free moment at the last taker's spacing (what a recon before `last` existed reads). */
  next: number;
  /** No request leaves before this (a 429 one process received). */
  blockedUntil: number;
  /** The processes that took a turn within the last interval, by id. */
  members: Record<string, Member>;
}

export class SharedBudget {
  private readonly lockPath: string;
  /** This process's id in the file (host, pid and a token: two budgets in one process are two members). */
  private readonly id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(readonly file: string, private readonly lockOptions: LockOptions = {}) {
    this.lockPath = `${file}.lock`;
  }

  /**
   * Take the next turn on the host's schedule: resolves to the moment (ms since epoch, by `now`) the
   * request may leave; the caller waits until then. `spacingMs` is this process's own spacing and
   * `intervalMs` its budget's window: the host's spacing is the smallest among those that asked within it.
   */
  async reserve(now: number, spacingMs: number, signal?: AbortSignal, intervalMs = 60_000): Promise<number> {
    return this.locked(signal, (s) => {
      if (s.last > now + MAX_AHEAD_MS) s.last = now;
      if (s.next > now + MAX_AHEAD_MS) s.next = now;
      if (s.blockedUntil > now + MAX_AHEAD_MS) s.blockedUntil = now;
      s.members[this.id] = { spacingMs, seen: now };
      const members = Object.entries(s.members)
        .filter(([, m]) => m.seen > now - intervalMs && m.seen <= now + MAX_AHEAD_MS)
        .sort((a, b) => b[1].seen - a[1].seen)
        .slice(0, MAX_MEMBERS);
      s.members = Object.fromEntries(members);
      const hostSpacing = Math.min(...members.map(([, m]) => m.spacingMs));
      const at = Math.max(now, s.last + hostSpacing, s.blockedUntil);
      s.last = at;
      s.next = at + hostSpacing;
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
    const release = await takeBudgetLock(this.lockPath, this.lockOptions, signal);
    try {
      const state = this.read();
      const out = change(state);
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, `${JSON.stringify(state)}\n`);
      renameSync(tmp, this.file);
      return out;
    } finally {
      release();
    }
  }

  private read(): State {
    try {
      const v = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<State>;
      const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
      return { last: num(v.last), next: num(v.next), blockedUntil: num(v.blockedUntil), members: members(v.members) };
    } catch {
      return { last: 0, next: 0, blockedUntil: 0, members: {} }; // absent or unreadable: a fresh schedule
    }
  }
}

/** The members the file names, each with a positive spacing and a time; anything else is dropped. */
function members(v: unknown): Record<string, Member> {
  if (typeof v !== 'object' || v === null) return {};
  const out: Record<string, Member> = {};
  for (const [id, m] of Object.entries(v as Record<string, unknown>)) {
    const { spacingMs, seen } = (m ?? {}) as Partial<Member>;
    const valid = typeof spacingMs === 'number' && spacingMs > 0 && Number.isFinite(spacingMs)
      && typeof seen === 'number' && Number.isFinite(seen);
    // defined, not assigned: an id "__proto__" in the file is data
    if (valid) Object.defineProperty(out, id, { value: { spacingMs, seen }, enumerable: true, writable: true });
  }
  return out;
}
