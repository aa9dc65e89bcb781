import { describe, expect, it } from 'vitest';
import { backoffMs, shouldRetry, DEFAULT_RETRY } from '../../../src/api/retry.js';
import { AuthError, NotFoundError, RateLimitedError, TerminalApiError, TransientApiError, errorFromResponse } from '../../../src/api/errors.js';
import { RequestBudget, type Clock } from '../../../src/api/budget.js';
import { redactSecret, redactUrl } from '../../../src/api/redact.js';
import { busiestWindow } from '../../helpers/sliding-window.js';

describe('retry policy', () => {
  it('retries transient errors until the attempts run out, and never a 4xx', () => {
    const transient = new TransientApiError('500', { path: '/x', status: 500 });
    expect(shouldRetry(transient, 1)).toBe(true);
    expect(shouldRetry(transient, DEFAULT_RETRY.maxAttempts - 1)).toBe(true);
    expect(shouldRetry(transient, DEFAULT_RETRY.maxAttempts)).toBe(false);
    expect(shouldRetry(new TerminalApiError('422', { path: '/x', status: 422 }), 1)).toBe(false);
    expect(shouldRetry(new NotFoundError('404', { path: '/x', status: 404 }), 1)).toBe(false);
    expect(shouldRetry(new Error('bug'), 1)).toBe(false);
  });

  it('always waits out a 429 (the block is not a failed attempt)', () => {
    expect(shouldRetry(new RateLimitedError('429', { path: '/x' }, 1000), 99)).toBe(true);
  });

  it('backs off exponentially with jitter, capped', () => {
    const p = { maxAttempts: 10, baseMs: 100, capMs: 1000 };
    expect(backoffMs(1, p, () => 0)).toBe(50);
    expect(backoffMs(1, p, () => 1)).toBe(100);
    expect(backoffMs(3, p, () => 1)).toBe(400);
    expect(backoffMs(9, p, () => 1)).toBe(1000);
    for (let i = 0; i < 50; i += 1) {
      const v = backoffMs(4, p);
      expect(v).toBeGreaterThanOrEqual(400);
      expect(v).toBeLessThanOrEqual(800);
    }
  });
});

describe('error mapping', () => {
  const body = JSON.stringify({ type: 'https://x/e', title: 'Unprocessable entity', status: '422', detail: 'per_page is invalid', errors: [] });
  it('maps each status to one class and keeps the error body', () => {
    const e = errorFromResponse(422, '/disbursements', body, {});
    expect(e).toBeInstanceOf(TerminalApiError);
    expect(e.body?.detail).toBe('per_page is invalid');
    expect(e.message).toContain('per_page is invalid');
    expect(errorFromResponse(401, '/x', '', {})).toBeInstanceOf(AuthError);
    expect(errorFromResponse(404, '/x', '', {})).toBeInstanceOf(NotFoundError);
    expect(errorFromResponse(503, '/x', '<html>', {})).toBeInstanceOf(TransientApiError);
    expect(errorFromResponse(500, '/x', '', {}).message).toMatch(/API key/);
  });

  it('reads Retry-After in seconds', () => {
    const e = errorFromResponse(429, '/x', '', { 'retry-after': '7' }) as RateLimitedError;
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.retryAfterMs).toBe(7000);
  });
});

function fakeClock(): Clock & { t: number; sleeps: number[] } {
  const c = {
    t: 0,
    sleeps: [] as number[],
    now: () => c.t,
    sleep: async (ms: number) => {
      c.sleeps.push(ms);
      c.t += ms;
    },
  };
  return c;
}

describe('request budget', () => {
  it('spends a small burst, then one token per interval/limit', async () => {
    const clock = fakeClock();
    const budget = new RequestBudget({ limit: 60, intervalMs: 60_000, burst: 2 }, clock);
    for (let i = 0; i < 12; i += 1) await budget.acquire();
    // 2 at once, then 10 more at one per second
    expect(clock.t).toBeGreaterThanOrEqual(10_000);
    expect(clock.t).toBeLessThan(10_500);
  });

  it('keeps any sliding minute under the limit plus the burst', async () => {
    const clock = fakeClock();
    const budget = new RequestBudget({ limit: 450, intervalMs: 60_000 }, clock);
    const times: number[] = [];
    for (let i = 0; i < 1500; i += 1) {
      await budget.acquire();
      times.push(clock.t);
    }
    const worst = busiestWindow(times, 60_000);
    expect(worst).toBeLessThan(500);
  });

  it('paces at the whole default budget, never above 480 in a sliding minute (30 of burst, 20 left for jitter)', async () => {
    const clock = fakeClock();
    const start = clock.t;
    const budget = new RequestBudget({ limit: 450, intervalMs: 60_000 }, clock);
    const times: number[] = [];
    for (let i = 0; i < 2000; i += 1) {
      await budget.acquire();
      times.push(clock.t - start);
    }
    const worst = busiestWindow(times, 60_000);
    expect(worst).toBeGreaterThan(470);
    expect(worst).toBeLessThanOrEqual(480);
    for (let m = 1; m < 4; m += 1) expect(times.filter((t) => t >= m * 60_000 && t < (m + 1) * 60_000).length).toBeGreaterThanOrEqual(449);
  });

  it('lets no request through while blocked after a 429', async () => {
    const clock = fakeClock();
    const budget = new RequestBudget({ limit: 6000, intervalMs: 60_000 }, clock);
    await budget.acquire();
    budget.block(clock.t + 600_000);
    await budget.acquire();
    expect(clock.t).toBeGreaterThanOrEqual(600_000);
  });
});

describe('redaction', () => {
  it('drops the query string (signature, expiry) of pre-signed URLs', () => {
    expect(redactUrl('https://files.example/a.csv?expires=1&signature=abc')).toBe('https://files.example/a.csv?[redacted]');
    expect(redactUrl('https://files.example/a.csv')).toBe('https://files.example/a.csv');
  });
  it('censors the secret in any text', () => {
    expect(redactSecret('key sk_live_123 failed sk_live_123', 'sk_live_123')).toBe('key [redacted] failed [redacted]');
  });
});
