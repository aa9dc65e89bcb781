// Pure retry policy: which failures to retry and how long to wait. Sleeping is the caller's (injected).
import { ApiError, RateLimitedError } from './errors.js';

export interface RetryPolicy {
  maxAttempts: number; // attempts per request, the first included (429 pauses are not attempts)
  baseMs: number;
  capMs: number;
}

// 10 attempts: at a 20% fault rate one request in 10^7 still fails, i.e. none in a 100k-disbursement night.
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 10, baseMs: 500, capMs: 30_000 };

/** Retry transient failures (5xx, network, time-outs, malformed bodies) until attempts run out; never other 4xx. */
export function shouldRetry(error: unknown, attempt: number, policy: RetryPolicy = DEFAULT_RETRY): boolean {
  if (error instanceof RateLimitedError) return true;
  if (attempt >= policy.maxAttempts) return false;
  return error instanceof ApiError ? error.transient : false;
}

/** Capped exponential backoff with full jitter: uniform in [0, min(cap, base·2^(attempt−1))]. */
export function backoffMs(
  attempt: number,
  policy: RetryPolicy = DEFAULT_RETRY,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}
