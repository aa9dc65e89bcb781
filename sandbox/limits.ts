// Rate limit per client IP (interface, Limits: 500 requests a minute per IP; over it → 429 and a
// 10-minute block). A sliding window: the request is over the limit when the `limit`-th previous
// request of that IP is still inside the window.

interface IpState {
  /** Ring of the last `limit` request times. */
  times: Float64Array;
  next: number;
  filled: number;
  blockedUntil: number;
}

export type Admission = { ok: true } | { ok: false; retryAfterMs: number };

export class RateLimiter {
  private readonly ips = new Map<string, IpState>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly blockMs: number,
  ) {}

  /** Count one request of `ip` at `now`; refuse it when the IP is blocked or goes over the limit. */
  admit(ip: string, now: number): Admission {
    const s = this.state(ip);
    if (now < s.blockedUntil) return { ok: false, retryAfterMs: s.blockedUntil - now };
    if (s.filled === this.limit) {
      const oldest = s.times[s.next] ?? 0;
      if (now - oldest < this.windowMs) return this.block(ip, now);
    }
    s.times[s.next] = now;
    s.next = (s.next + 1) % this.limit;
    s.filled = Math.min(this.limit, s.filled + 1);
    return { ok: true };
  }

  /** Block an IP as if it went over the limit (also used by the '429' fault). */
  block(ip: string, now: number): Admission {
    const s = this.state(ip);
    s.blockedUntil = now + this.blockMs;
    // the block is the penalty; the window starts afresh when it ends
    s.filled = 0;
    s.next = 0;
    return { ok: false, retryAfterMs: this.blockMs };
  }

  private state(ip: string): IpState {
    let s = this.ips.get(ip);
    if (!s) {
      s = { times: new Float64Array(this.limit), next: 0, filled: 0, blockedUntil: 0 };
      this.ips.set(ip, s);
    }
    return s;
  }
}
