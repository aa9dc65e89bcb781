// The payments-service client: undici with keep-alive, the request budget, retries, error mapping.
// One instance per process run; callers pass it in (no global singleton).
import { setMaxListeners } from 'node:events';
import { Agent, request, errors as undiciErrors, type Dispatcher } from 'undici';
import type { Logger } from 'pino';
import { RequestBudget, abortError, realClock, type Clock } from './budget.js';
import { ApiError, RateLimitedError, TerminalApiError, TransientApiError, errorFromResponse } from './errors.js';
import { DEFAULT_RETRY, backoffMs, shouldRetry, type RetryPolicy } from './retry.js';
import { redactUrl } from './redact.js';
import { guardedLookup, isLoopbackAddress, linkRefusal, type LinkPolicy } from './links.js';
import { parseJsonExact } from './json.js';
import type { AttemptOutcome } from './concurrency.js';

interface ClientOptions {
  baseUrl: string; // without /payments/v1
  apiKey: string;
  budget: RequestBudget;
  logger: Logger;
  clock?: Clock;
  retry?: RetryPolicy;
  /** Above the service's own 8 s limit (interface § Limits), so the service answers first. */
  timeoutMs?: number;
  /** 429 without Retry-After: the interface's 10-minute block. */
  blockMs?: number;
  /** Largest response body accepted (JSON answers and files alike use their own limits). */
  maxBodyBytes?: number;
  connections?: number;
  random?: () => number;
  /** --insecure-http: file links may be plain http to another host. */
  insecureHttp?: boolean;
  /** The run's stop signal: every wait (budget, 429 pause, back-off) and request ends when it aborts. */
  signal?: AbortSignal;
  /** Told how each attempt ended and how long it took (the adaptive concurrency, src/api/concurrency.ts). */
  onAttempt?: (outcome: AttemptOutcome, latencyMs: number) => void;
}

/**
 * The longest pause a 429 may impose: the interface's 10-minute block plus a margin. A Retry-After above
 * it would hold the lock for as long as the service likes; the run stops instead and says so.
 */
const MAX_RATE_LIMIT_PAUSE_MS = 12 * 60_000;

/** Redirects a file download follows (a CDN hop or two); never with the API key, which downloads never send. */
const MAX_REDIRECTS = 3;

interface ClientStats {
  requests: number;
  retries: number;
  rateLimited: number;
  downloads: number;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export class BodyTooLargeError extends TerminalApiError {
  override readonly name: string = 'BodyTooLargeError';
}

const API_PREFIX = '/payments/v1';

export class PaymentsClient {
  readonly stats: ClientStats = { requests: 0, retries: 0, rateLimited: 0, downloads: 0 };
  private readonly dispatcher: Dispatcher;
  /** Downloads connect through their own agent, whose name look-ups refuse internal addresses (src/api/links.ts). */
  private readonly downloads: Dispatcher;
  private readonly linkPolicy: LinkPolicy;
  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly blockMs: number;
  private readonly maxBodyBytes: number;
  private readonly random: () => number;
  /**
   * Blocks the service imposed (a 429 while no block was in force): the requests already in flight when a block
   * begins come back 429 too, as many as the connections, and are the same block, not new ones.
   */
  private blocks = 0;
  private blockedUntil = 0;

  constructor(private readonly options: ClientOptions) {
    this.clock = options.clock ?? realClock;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.blockMs = options.blockMs ?? 600_000;
    this.maxBodyBytes = options.maxBodyBytes ?? 20 * 1024 * 1024;
    this.random = options.random ?? Math.random;
    this.dispatcher = new Agent({
      keepAliveTimeout: 30_000,
      connections: options.connections ?? 16,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    // every request in flight, every wait for the budget and every back-off listens to the stop signal:
    // as many as the connections allow, several times over, are expected (not a leak)
    if (options.signal) setMaxListeners(Math.max(10, (options.connections ?? 16) * 4), options.signal);
    const apiHost = new URL(options.baseUrl).hostname.replace(/^\[|\]$/g, '');
    this.linkPolicy = {
      apiIsLoopback: apiHost === 'localhost' || isLoopbackAddress(apiHost),
      insecureHttp: options.insecureHttp ?? false,
    };
    this.downloads = new Agent({
      keepAliveTimeout: 30_000,
      connections: 4,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connect: { lookup: guardedLookup(this.linkPolicy) },
    });
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** The page size a list should ask for: the one asked, capped by what the service accepted so far. */
  pageSize(asked: number): number {
    return this.acceptedPageSize === null ? asked : Math.min(asked, this.acceptedPageSize);
  }

  /** The service refused a larger page and accepted this one: every later list of the run asks for it. */
  acceptPageSize(size: number, refusal: string): void {
    if (this.acceptedPageSize !== null && this.acceptedPageSize <= size) return;
    this.acceptedPageSize = size;
    this.options.logger.warn(
      { perPage: size, refusal },
      `the service refused the page size asked for; asking for ${size} per page from now on`,
    );
  }

  /** Set when a page size was negotiated (or remembered from an earlier run); null while none was needed. */
  acceptedPageSize: number | null = null;

  /**
   * While true (no --per-page given, none remembered), the first page size the service serves without
   * refusing is kept as the accepted one: every later list of the run, and later runs, ask for it.
   */
  learnPageSize = false;

  /**
   * The service answered a first page at this size (a size it caps is still accepted: the envelope says what it
   * applied).
   */
  pageSizeServed(size: number): void {
    if (this.learnPageSize && this.acceptedPageSize === null) this.acceptedPageSize = size;
  }

  /**
   * GET an API path (relative to /payments/v1) and return its parsed JSON, retrying transient failures. A
   * number a double cannot hold comes back as an InexactNumber with its digits (src/api/json.ts).
   */
  async getJson(
    path: string,
    query?: Record<string, string | number>,
    o: { maxAttempts?: number } = {},
  ): Promise<unknown> {
    const url = new URL(`${this.options.baseUrl.replace(/\/+$/, '')}${API_PREFIX}${path}`);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, String(v));
    return this.withRetries(path, o.maxAttempts, async () => {
      const res = await this.send(url, true, this.maxBodyBytes);
      const text = res.body.toString('utf8');
      if (res.status < 200 || res.status >= 300) throw errorFromResponse(res.status, path, text, res.headers);
      try {
        return parseJsonExact(text);
      } catch (cause) {
        // Truncated JSON, an HTML page with status 200, …: the same GET may come back whole.
        throw new TransientApiError(
          `GET ${path} → ${res.status} with a body that is not JSON (${text.slice(0, 60).replace(/\s+/g, ' ')}…)`,
          {
            status: res.status,
            path,
            cause,
          },
        );
      }
    });
  }

  /**
   * Download a pre-signed file URL (no API key: the signature is the credential). Returns status and bytes.
   * The link and every redirect must pass the link policy; a slow file is fine as long as bytes keep
   * coming (the time-out is between chunks, not for the whole body).
   */
  async download(url: string, maxBytes: number): Promise<RawResponse> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new TerminalApiError('file link refused: it is not a URL', { path: redactUrl(url) });
    }
    for (let hop = 0; ; hop += 1) {
      const label = redactUrl(target.toString());
      const refusal = linkRefusal(target, this.linkPolicy);
      if (refusal) throw new TerminalApiError(`file link refused: ${refusal}`, { path: label });
      const from = target;
      const res = await this.withRetries(label, undefined, async () => {
        const r = await this.send(from, false, maxBytes);
        this.stats.downloads += 1;
        // status only: a body served here is never quoted (it could be anything the link pointed at)
        if (r.status >= 500) throw errorFromResponse(r.status, label, '', r.headers);
        if (r.status === 429) throw errorFromResponse(429, label, '', r.headers);
        return r;
      });
      const location = res.headers.location;
      if (res.status >= 300 && res.status < 400 && typeof location === 'string') {
        if (hop >= MAX_REDIRECTS)
          throw new TerminalApiError(`file download redirected more than ${MAX_REDIRECTS} times`, {
            path: label,
            status: res.status,
          });
        try {
          target = new URL(location, target);
        } catch {
          throw new TerminalApiError('file download redirected to something that is not a URL', {
            path: label,
            status: res.status,
          });
        }
        continue;
      }
      return res;
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.dispatcher.close(), this.downloads.close()]);
  }

  private async withRetries<T>(
    label: string,
    maxAttempts: number | undefined,
    attemptOnce: () => Promise<T>,
  ): Promise<T> {
    const policy = maxAttempts === undefined ? this.retry : { ...this.retry, maxAttempts };
    let attempt = 0;
    for (;;) {
      attempt += 1;
      try {
        return await attemptOnce();
      } catch (error) {
        if (this.options.signal?.aborted) throw abortError(); // stopping: never retried, never waited on
        const wrapped = this.wrap(error, label);
        if (wrapped instanceof RateLimitedError) {
          this.stats.rateLimited += 1;
          attempt -= 1; // the block is the service's decision, not a failed attempt
          const pauseMs = wrapped.retryAfterMs ?? this.blockMs;
          if (pauseMs > MAX_RATE_LIMIT_PAUSE_MS) {
            throw new RateLimitedError(
              `the payments service asks to wait ${Math.round(pauseMs / 60_000)} min (Retry-After), more than the ` +
                `interface's ` +
                `10-minute block; the run stops rather than hold the lock — run it again later`,
              { path: label, status: 429 },
              pauseMs,
            );
          }
          const now = this.clock.now();
          if (now >= this.blockedUntil) this.blocks += 1;
          this.blockedUntil = Math.max(this.blockedUntil, now + pauseMs);
          this.options.budget.block(now + pauseMs);
          this.options.logger.error(
            { path: label, pauseMs, rateLimited: this.stats.rateLimited },
            `429 from the payments service: no request leaves for ${Math.round(pauseMs / 1000)} s (another program ` +
              `on this IP may be using the shared 500/min budget)`,
          );
          // a service that blocks again after every pause would hold the run for ever: stop after 50 blocks
          if (this.blocks > 50) throw wrapped;
          continue;
        }
        if (!shouldRetry(wrapped, attempt, policy)) throw wrapped;
        this.stats.retries += 1;
        const wait = backoffMs(attempt, policy, this.random);
        this.options.logger.warn(
          { path: label, attempt, waitMs: wait, err: wrapped.message },
          'transient failure, retrying',
        );
        await this.clock.sleep(wait, this.options.signal);
      }
    }
  }

  private wrap(error: unknown, path: string): ApiError {
    if (error instanceof ApiError) return error;
    const message = error instanceof Error ? error.message : String(error);
    if (causes(error).some((e) => (e as NodeJS.ErrnoException).code === 'ERECONINTERNAL')) {
      return new TerminalApiError(`file link refused: ${message}`, { path, cause: error });
    }
    if (error instanceof undiciErrors.UndiciError || isNetworkError(error)) {
      return new TransientApiError(`GET ${path} failed: ${message}`, { path, cause: error });
    }
    return new TerminalApiError(`GET ${path} failed: ${message}`, { path, cause: error });
  }

  private async send(url: URL, api: boolean, maxBytes: number): Promise<RawResponse> {
    await this.options.budget.acquire(this.options.signal);
    this.stats.requests += 1;
    const started = this.clock.now();
    try {
      const res = await this.exchange(url, api, maxBytes);
      const outcome = res.status === 429 ? 'limited' : res.status >= 500 ? 'fault' : 'answered';
      this.options.onAttempt?.(outcome, this.clock.now() - started);
      return res;
    } catch (error) {
      if (!this.options.signal?.aborted && !(error instanceof BodyTooLargeError)) {
        this.options.onAttempt?.(isTimeout(error) ? 'timeout' : 'fault', this.clock.now() - started);
      }
      throw error;
    }
  }

  /** One request and its whole body (within `maxBytes`). */
  private async exchange(url: URL, api: boolean, maxBytes: number): Promise<RawResponse> {
    const headers: Record<string, string> = api
      ? { 'content-type': 'application/json', accept: 'application/json', 'x-authentication-key': this.options.apiKey }
      : {};
    const res = await request(url, {
      method: 'GET',
      headers,
      dispatcher: api ? this.dispatcher : this.downloads,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      // an API answer must come whole within twice the time-out; a file may take long if it keeps coming
      signal: stopOr(api ? AbortSignal.timeout(this.timeoutMs * 2) : undefined, this.options.signal),
    });
    const declared = Number(res.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      abandon(res.body);
      throw new BodyTooLargeError(
        `GET ${redactUrl(url.toString())}: body of ${declared} bytes is over the ${maxBytes}-byte limit`,
        {
          status: res.statusCode,
          path: url.pathname,
        },
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > maxBytes) {
        abandon(res.body);
        throw new BodyTooLargeError(`GET ${redactUrl(url.toString())}: body over the ${maxBytes}-byte limit`, {
          status: res.statusCode,
          path: url.pathname,
        });
      }
      chunks.push(buf);
    }
    return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) };
  }
}

/**
 * Stop reading a body we refuse. undici's body emits an AbortError when destroyed unread; without a
 * listener that is an uncaught exception, which ended the whole process (exit 1) on a file too large.
 */
function abandon(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** One signal for a request: its own deadline (if any) or the run's stop, whichever comes first. */
function stopOr(deadline: AbortSignal | undefined, stop: AbortSignal | undefined): AbortSignal | undefined {
  if (deadline && stop) return AbortSignal.any([deadline, stop]);
  return deadline ?? stop;
}

/** The error and its causes, outermost first (bounded: a cause chain can be cyclic). */
function causes(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = error; e && out.length < 8; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

/** No answer in time: the client's own time-outs (headers, between body chunks, the whole answer). */
function isTimeout(error: unknown): boolean {
  return causes(error).some((e) => {
    const { code, name } = (e ?? {}) as { code?: string; name?: string };
    return name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
  });
}

function isNetworkError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const name = (error as Error | undefined)?.name ?? '';
  return (
    ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code) ||
    name === 'TimeoutError' ||
    name === 'AbortError'
  );
}
