// "Budget, not reaction": one token bucket per process keeps requests under the configured rate, because
// the service counts 500 requests/min per IP (interface § Limits) and other software may share the IP.
// A 429 anyway closes the gate for the whole block period: no request at all leaves until it reopens.

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or rejects with an AbortError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** setTimeout's largest delay; longer ones would fire at once (and a wait loop would spin). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function abortError(): Error {
  return Object.assign(new Error('stopped by a signal'), { name: 'AbortError' });
}

/** A sleep that a stop signal ends at once (SIGTERM/SIGINT during a 10-minute 429 pause). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, Math.min(ms, MAX_TIMER_MS)));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep,
};

interface BudgetOptions {
  /** Requests allowed per interval (default 450 per 60 000 ms). */
  limit: number;
  intervalMs: number;
  /**
   * Tokens that may be spent at once. The service's window is sliding, so in any interval we may send burst + limit.
   * The default is what the service's 500 leaves above the budget, up to a fifteenth of it (30 at the default 450: at
   * most 480 in any sliding minute, 20 left for jitter), and at least a thirtieth: requests that could not leave while
   * the workers were busy elsewhere (a retry's back-off, a commit) catch up instead of being lost to the night (pacing
   * at the budget).
   */
  burst?: number;
  /** The host-wide schedule every recon process on the host shares (--budget-file, src/api/shared-budget.ts). */
  shared?: SharedSchedule;
}

/** Turns on a schedule shared with other processes (SharedBudget): when a request may leave, and a gate for all. */
interface SharedSchedule {
  /** The moment this process's next request may leave; its own spacing and window say how fast it goes. */
  reserve(now: number, spacingMs: number, signal?: AbortSignal, intervalMs?: number): Promise<number>;
  block(until: number): Promise<void>;
}

/** The service's limit per window (interface § Limits: 500 requests a minute per IP). */
const SERVICE_LIMIT = 500;

function defaultBurst(limit: number): number {
  const floor = Math.floor(limit / 30);
  const room = SERVICE_LIMIT - limit;
  return Math.max(1, room > 0 ? Math.max(floor, Math.min(Math.floor(limit / 15), room)) : floor);
}

export class RequestBudget {
  private tokens: number;
  private last: number;
  private gateOpensAt = 0;
  private readonly rate: number;
  private readonly burst: number;
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;
  private readonly grantListeners: Array<(waited: boolean) => void> = [];

  constructor(
    private readonly options: BudgetOptions,
    private readonly clock: Clock = realClock,
  ) {
    this.rate = options.limit / options.intervalMs;
    this.burst = Math.max(1, options.burst ?? defaultBurst(options.limit));
    this.tokens = this.burst;
    this.last = clock.now();
  }

  /** Wait for a token (FIFO) and for the gate to be open; a stop signal ends the wait. */
  acquire(signal?: AbortSignal): Promise<void> {
    this.pending += 1;
    const turn = this.tail.then(() => this.take(signal)).finally(() => (this.pending -= 1));
    this.tail = turn.then(() => undefined, () => undefined);
    return turn.then((waited) => {
      for (const listener of this.grantListeners) listener(waited);
    });
  }

  /** Turns made per ms. */
  get perMs(): number {
    return this.rate;
  }

  /** Requests waiting for their turn (the one being handed out included until it leaves). */
  get waiting(): number {
    return this.pending;
  }

  /** Told of every turn handed out, and whether its request had to wait for it (the concurrency's signal). */
  onGrant(listener: (waited: boolean) => void): void {
    this.grantListeners.push(listener);
  }

  /** Takes a token; resolves to whether the request had to wait for it (a token, the gate, the host's turn). */
  private async take(signal?: AbortSignal): Promise<boolean> {
    let waited = false;
    for (;;) {
      if (signal?.aborted) throw abortError();
      const now = this.clock.now();
      if (now < this.gateOpensAt) {
        waited = true;
        await this.clock.sleep(this.gateOpensAt - now, signal);
        continue;
      }
      this.tokens = Math.min(this.burst, this.tokens + (now - this.last) * this.rate);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        if (this.options.shared) return (await this.takeSharedTurn(signal)) || waited;
        return waited;
      }
      waited = true;
      await this.clock.sleep(Math.ceil((1 - this.tokens) / this.rate), signal);
    }
  }

  /** This process's turn on the host's schedule (its own pace is this bucket's; the file spaces the host's). */
  private async takeSharedTurn(signal?: AbortSignal): Promise<boolean> {
    const { intervalMs, limit } = this.options;
    const at = await this.options.shared!.reserve(this.clock.now(), intervalMs / limit, signal, intervalMs);
    const wait = at - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait, signal);
    return wait > 0;
  }

  /** Close the gate until `until` (ms since epoch); tokens are dropped so requests do not burst after. */
  block(until: number): void {
    // every process sharing the host's schedule stops too (best effort: the 429 pause here holds regardless)
    this.options.shared?.block(until).catch(() => undefined);
    if (until > this.gateOpensAt) this.gateOpensAt = until;
    this.tokens = 0;
    this.last = Math.max(this.last, until);
  }

  get blockedUntil(): number {
    return this.gateOpensAt;
  }
}
