// One HTTP request of an outlet (alerts, health pings): bounded in time and attempts, never following a
// redirect to another origin, never carrying anything but what the caller gives (no API key exists here).
// It never throws: the caller turns a failure into a warning, and the night's outcome stays as it was.
import { Agent, request } from 'undici';
import { PACKAGE_VERSION } from './version.js';
import { DEFAULT_LIMITS, type DeliveryLimits } from './limits.js';

export interface Delivered {
  ok: boolean;
  status: number | null;
  attempts: number;
  /** Why it failed, in words (no URL: a webhook's path is a secret). */
  error?: string;
}

/** A redirect to the same origin keeps the method and body only as 307/308; at most this many. */
const MAX_REDIRECTS = 3;

/** Waits between attempts: 0.5 s, 1 s, 2 s … capped (deterministic: few requests, no herd to spread). */
export function backoffMs(attempt: number): number {
  return Math.min(4_000, 500 * 2 ** (attempt - 1));
}

/** Worth another attempt: no answer, a time-out, 408, 429 or a 5xx. */
function retryable(status: number | null): boolean {
  return status === null || status === 408 || status === 429 || status >= 500;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export async function send(
  method: 'POST' | 'GET',
  url: string,
  body: { contentType: string; text: string } | null,
  limits: DeliveryLimits = DEFAULT_LIMITS,
): Promise<Delivered> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const agent = new Agent({
    connect: { timeout: limits.timeoutMs },
    headersTimeout: limits.timeoutMs,
    bodyTimeout: limits.timeoutMs,
  });
  const sleep = limits.sleep ?? realSleep;
  let last: Delivered = { ok: false, status: null, attempts: 0, error: 'not sent' };
  try {
    for (let attempt = 1; attempt <= limits.attempts; attempt += 1) {
      last = { ...(await once(agent, method, url, body, deadline)), attempts: attempt };
      if (last.ok || !retryable(last.status) || last.error?.startsWith('redirect')) return last;
      if (deadline.aborted || attempt === limits.attempts) break;
      await Promise.race([sleep(backoffMs(attempt)), aborted(deadline)]);
      if (deadline.aborted) break;
    }
    if (deadline.aborted)
      last = {
        ...last,
        ok: false,
        error: `no answer within ${Math.round(limits.timeoutMs / 1000)} s (${last.error ?? `HTTP ${last.status}`})`,
      };
    return last;
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

async function once(
  agent: Agent,
  method: 'POST' | 'GET',
  url: string,
  body: { contentType: string; text: string } | null,
  signal: AbortSignal,
): Promise<Omit<Delivered, 'attempts'>> {
  let target = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    let res;
    try {
      res = await request(target, {
        method,
        dispatcher: agent,
        signal,
        headers: { 'user-agent': `recon/${PACKAGE_VERSION}`, ...(body ? { 'content-type': body.contentType } : {}) },
        body: body?.text,
      });
    } catch (err) {
      return { ok: false, status: null, error: describeNetworkError(err) };
    }
    await res.body.dump().catch(() => undefined);
    const status = res.statusCode;
    if (status >= 200 && status < 300) return { ok: true, status };
    if (status < 300 || status >= 400) return { ok: false, status, error: `HTTP ${status}` };
    const location = res.headers.location;
    const next = typeof location === 'string' ? safeResolve(location, target) : null;
    // a webhook that moved to another host is not followed: the document would go where nobody configured
    if (!next || next.origin !== new URL(target).origin || (status !== 307 && status !== 308)) {
      return {
        ok: false,
        status,
        error: `redirect (HTTP ${status}) ` +
                 `${next && next.origin !== new URL(target).origin ? 'to another host' : 'changing the method'} not ` +
                   `followed`,
      };
    }
    target = next.href;
  }
  return { ok: false, status: null, error: `redirect: more than ${MAX_REDIRECTS} redirects` };
}

function safeResolve(location: string, base: string): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

/** undici's errors in words; the message never carries the URL's secrets since only the code is kept. */
function describeNetworkError(err: unknown): string {
  const e = err as { code?: string; name?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  if (e.name === 'AbortError' || e.name === 'TimeoutError' || code === 'UND_ERR_ABORTED') return 'timed out';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return 'timed out';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  return code ?? e.name ?? 'network error';
}
