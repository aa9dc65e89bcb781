// The HTTP side: one request goes through log → rate limit → auth (or link signature) → fault →
// delay → handler. `/__sandbox/*` bypasses all of it (docs/sandbox.md, Ground truth).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultKind } from './kinds.js';
import { RateLimiter } from './limits.js';
import {
  classify, emptyByEndpoint, errorReply, json, parsePaging, isReply, RequestLog, type Endpoint, type Reply,
  type RequestLogEntry, type SandboxStats,
} from './replies.js';
import { download, routeApi, type ApiContext } from './routes.js';
import { bigintAsString, type Truth } from './truth.js';
import { rngFor } from './rng.js';

const HTML_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1>' +
    '</center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

export interface ControlHooks {
  truth: Truth;
  setGeneration(n: number): void;
}

export class SandboxServer {
  readonly log: RequestLog;
  private readonly limiter: RateLimiter;
  private byEndpoint = emptyByEndpoint();
  private total = 0;
  private rateLimited = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly ctx: ApiContext,
    private readonly hooks: ControlHooks,
  ) {
    const { limit, windowMs, blockMs } = ctx.opts.rateLimit;
    this.limiter = new RateLimiter(limit, windowMs, blockMs);
    this.log = new RequestLog(ctx.opts.requestLogSize);
  }

  stats(): SandboxStats {
    return {
      requests: { total: this.total, byEndpoint: { ...this.byEndpoint } },
      rateLimited: this.rateLimited,
      faults: { ...this.ctx.faults.counts },
    };
  }

  resetStats(): void {
    this.byEndpoint = emptyByEndpoint();
    this.total = 0;
    this.rateLimited = 0;
    this.ctx.faults.resetCounts();
    this.log.clear();
  }

  /** Cancel pending delays (the sockets are destroyed by the caller). */
  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  handle = (req: IncomingMessage, res: ServerResponse): void => {
    this.dispatch(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        send(res, errorReply(500, req.url ?? '', `sandbox bug: ${err instanceof Error ? err.message : String(err)}`));
    });
  };

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname;
    if (path === '/__sandbox' || path.startsWith('/__sandbox/')) {
      send(res, await this.control(req, path, url.searchParams));
      return;
    }
    const endpoint = classify(path);
    const now = this.ctx.opts.now();
    const entry = this.log.add({
      t: now,
      ip: req.socket.remoteAddress ?? 'unknown',
      method: req.method ?? 'GET',
      endpoint,
      path,
      status: 0,
    });
    this.total += 1;
    this.byEndpoint[endpoint] += 1;
    const admission = this.limiter.admit(entry.ip, now);
    if (!admission.ok) return this.finish(res, entry, this.tooMany(path, admission.retryAfterMs));
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return this.finish(res, entry, errorReply(405, path, `${req.method ?? ''} is not supported here`));
    if (endpoint === 'download') return this.finish(res, entry, download(this.ctx, path, url.searchParams));
    if (!path.startsWith('/payments/v1/'))
      return this.finish(res, entry, errorReply(404, path, `No resource at ${path}`));
    if (req.headers['x-authentication-key'] !== this.ctx.opts.apiKey) {
      const status = this.ctx.opts.authFailureStatus;
      return this.finish(res, entry, errorReply(status, path, 'Missing or invalid X-Authentication-Key'));
    }
    await this.serveApi(res, entry, endpoint, path, url.searchParams);
  }

  private async serveApi(
    res: ServerResponse,
    entry: RequestLogEntry,
    endpoint: Endpoint,
    path: string,
    query: URLSearchParams,
  ): Promise<void> {
    const fault = this.ctx.faults.draw();
    if (fault === '429') {
      this.limiter.block(entry.ip, entry.t);
      return this.finish(res, entry, this.tooMany(path, this.ctx.opts.rateLimit.blockMs));
    }
    const timeout = this.ctx.opts.serverTimeoutMs;
    const delay = this.ctx.faults.latency() + (fault === 'slow' ? timeout + 1 : 0);
    if (delay > timeout) {
      // interface, Limits: a request taking longer than the server time-out fails with 500
      await this.sleep(timeout);
      return this.finish(res, entry, errorReply(500, path, `Request took longer than ${timeout} ms`));
    }
    if (delay > 0) await this.sleep(delay);
    if (res.destroyed) return;
    const injected = injectedReply(fault, path);
    if (injected) return this.finish(res, entry, injected);
    let reply = routeApi(this.ctx, endpoint, path, query);
    if (this.ctx.opts.realism.shuffleFields && reply.status === 200)
      reply = { ...reply, body: shuffleFields(reply.body, this.ctx.opts.seed, this.total) };
    if (fault === 'truncated' || fault === 'reset') return this.breakReply(res, entry, reply, fault);
    if (endpoint === 'list' && reply.status === 200) this.ctx.faults.listPageServed();
    this.finish(res, entry, reply);
  }

  private breakReply(res: ServerResponse, entry: RequestLogEntry, reply: Reply, fault: FaultKind): void {
    const full = Buffer.from(reply.body);
    const half = full.subarray(0, Math.floor(full.length / 2));
    if (fault === 'truncated') {
      entry.status = reply.status;
      res.writeHead(reply.status, { ...reply.headers, 'content-length': String(half.length) });
      res.end(half);
      return;
    }
    // 'reset': promise the whole body, send half, then drop the connection
    res.writeHead(reply.status, { ...reply.headers, 'content-length': String(full.length) });
    res.write(half, () => res.socket?.destroy());
  }

  private tooMany(path: string, retryAfterMs: number): Reply {
    this.rateLimited += 1;
    const reply = errorReply(429, path, 'Rate limit exceeded; this address is blocked for a while');
    if (this.ctx.opts.rateLimit.retryAfter)
      reply.headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    return reply;
  }

  private finish(res: ServerResponse, entry: RequestLogEntry, reply: Reply): void {
    entry.status = reply.status;
    if (reply.sliceDelayMs) void this.sendSlowly(res, reply, reply.sliceDelayMs);
    else send(res, reply);
  }

  /** The body in 8 slices with a pause between them: a slow link, not a stalled one. */
  private async sendSlowly(res: ServerResponse, reply: Reply, delayMs: number): Promise<void> {
    const body = Buffer.from(reply.body);
    res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) });
    const slice = Math.ceil(body.length / 8) || 1;
    for (let at = 0; at < body.length; at += slice) {
      if (res.destroyed) return;
      res.write(body.subarray(at, at + slice));
      await this.sleep(delayMs);
    }
    res.end();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }

  private async control(req: IncomingMessage, path: string, query: URLSearchParams): Promise<Reply> {
    const route = `${req.method ?? 'GET'} ${path.replace(/\/$/, '')}`;
    switch (route) {
      case 'GET /__sandbox/truth': {
        const paging = parsePaging(query, path, 1000, 100);
        if (isReply(paging)) return paging;
        const total = this.hooks.truth.disbursementCount;
        const items = [];
        const from = (paging.page - 1) * paging.perPage;
        for (let i = from; i < Math.min(total, from + paging.perPage); i += 1)
          items.push(this.hooks.truth.disbursement(i));
        const envelope = {
          total_entries: total,
          total_pages: Math.ceil(total / paging.perPage),
          page: paging.page,
          per_page: paging.perPage,
          disbursements: items,
        };
        return json(200, envelope, bigintAsString);
      }
      case 'GET /__sandbox/anomalies':
        return json(200, this.hooks.truth.anomalies());
      case 'GET /__sandbox/stats':
        return json(200, this.stats());
      case 'POST /__sandbox/reset-stats':
        this.resetStats();
        return { status: 204, headers: {}, body: '' };
      case 'POST /__sandbox/generation': {
        const body = await readBody(req);
        let generation: unknown;
        try {
          generation = (JSON.parse(body) as { generation?: unknown }).generation;
        } catch {
          generation = undefined;
        }
        if (typeof generation !== 'number' || !Number.isInteger(generation) || generation < 0) {
          return errorReply(422, path, 'Body must be {"generation": <non-negative integer>}', [
            { source: path, param: 'generation', type: 'invalid_param', message: 'a non-negative integer is required' },
          ]);
        }
        this.hooks.setGeneration(generation);
        return json(200, { generation });
      }
      default:
        return errorReply(404, path, `No sandbox control at ${route}`);
    }
  }
}

function injectedReply(fault: FaultKind | null, path: string): Reply | null {
  switch (fault) {
    case '500':
    case '502':
    case '503':
      return errorReply(Number(fault), path, 'Injected fault');
    case 'html':
      return { status: 502, headers: { 'content-type': 'text/html' }, body: HTML_502 };
    default:
      return null;
  }
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(reply.body);
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * The same JSON with the fields of every object in another order (realism.shuffleFields; interface §
 * Conventions: "Parameters in responses can appear in any order"). The sandbox writes only safe integers.
 */
function shuffleFields(body: string, seed: string, requestNo: number): string {
  const rng = rngFor(seed, 'field-order', requestNo);
  return JSON.stringify(JSON.parse(body, (_key, value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    return Object.fromEntries(rng.shuffle(Object.entries(value as Record<string, unknown>)));
  }));
}
