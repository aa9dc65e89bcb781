// Building blocks of the HTTP side: replies, the interface's error body, paging parameters, endpoint
// names, and the request log / statistics that the ground truth exposes.
import type { FaultKind } from './kinds.js';
import { fnv1a } from './rng.js';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Sent in 8 slices with this pause between them (a slow download). */
  sliceDelayMs?: number;
}

const ENDPOINTS = [
  'list', 'disbursement', 'files', 'payouts', 'refunds', 'adjustments', 'payment', 'download', 'other',
] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

const JSON_TYPE = 'application/json; charset=utf-8';

export function json(status: number, value: unknown, replacer?: (key: string, value: unknown) => unknown): Reply {
  return { status, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(value, replacer as never) };
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  422: 'Unprocessable entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export interface ValidationError {
  source: string;
  param: string;
  type: string;
  message: string;
}

/**
 * The interface's error body {type, title, status, detail, errors}. `status` is a number or a string
 * ("appears in both forms"); which one is a deterministic function of status and path.
 */
export function errorReply(
  status: number,
  path: string,
  detail: string,
  errors: ValidationError[] | null = null,
): Reply {
  const title = TITLES[status] ?? 'Error';
  const asString = (fnv1a(`${status}:${path}`) & 1) === 1;
  return json(status, {
    type: `https://docs.payments.example/errors/${title.toLowerCase().replace(/\s+/g, '-')}`,
    title,
    status: asString ? String(status) : status,
    detail,
    errors,
  });
}

export interface Paging {
  page: number;
  perPage: number;
  /** True when per_page was above the maximum and got capped. */
  capped: boolean;
}

function positiveInt(raw: string | null): number | null {
  if (raw === null) return null;
  if (!/^\d{1,15}$/.test(raw)) return NaN;
  const n = Number(raw);
  return n >= 1 ? n : NaN;
}

/**
 * page/per_page (interface: Pagination parameters); anything but a positive integer → 422. A per_page
 * above `rejectAbove` (when set) is refused with 422 naming the maximum instead of being capped.
 */
export function parsePaging(
  query: URLSearchParams,
  path: string,
  maxPerPage: number,
  defaultPerPage = 10,
  rejectAbove = 0,
): Paging | Reply {
  const errors: ValidationError[] = [];
  const invalid = (param: string, message: string) => {
    errors.push({ source: path, param, type: 'invalid_param', message });
  };
  const positive = (param: string) => {
    const n = positiveInt(query.get(param));
    if (Number.isNaN(n)) invalid(param, `${param} must be a positive integer, got '${query.get(param) ?? ''}'`);
    return n;
  };
  const page = positive('page');
  const perPage = positive('per_page');
  if (errors.length === 0 && rejectAbove > 0 && perPage !== null && perPage > rejectAbove) {
    invalid('per_page', `per_page must be at most ${rejectAbove}`);
  }
  if (errors.length > 0) return errorReply(422, path, 'Invalid pagination parameters', errors);
  const wanted = perPage ?? defaultPerPage;
  return { page: page ?? 1, perPage: Math.min(wanted, maxPerPage), capped: wanted > maxPerPage };
}

export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && 'status' in value && 'body' in value;
}

/** The endpoint a path addresses (docs/sandbox.md, Ground truth: stats and request log). */
export function classify(path: string): Endpoint {
  if (path.startsWith('/files/')) return 'download';
  const m = /^\/payments\/v1\/(disbursements|payments)(?:\/([^/]+)(?:\/([^/]+))?)?\/?$/.exec(path);
  if (!m) return 'other';
  const [, resource, id, child] = m;
  if (resource === 'payments') return id && !child ? 'payment' : 'other';
  if (!id) return 'list';
  if (!child) return 'disbursement';
  return child === 'files' || child === 'payouts' || child === 'refunds' || child === 'adjustments' ? child : 'other';
}

export interface RequestLogEntry {
  t: number;
  ip: string;
  method: string;
  endpoint: Endpoint;
  path: string;
  /** HTTP status sent; 0 when the socket was destroyed before a complete answer (fault 'reset'). */
  status: number;
}

/** Ring buffer of the last `size` requests. */
export class RequestLog {
  private readonly ring: (RequestLogEntry | undefined)[];
  private next = 0;

  constructor(private readonly size: number) {
    this.ring = new Array<RequestLogEntry | undefined>(size);
  }

  add(entry: RequestLogEntry): RequestLogEntry {
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.size;
    return entry;
  }

  entries(): RequestLogEntry[] {
    const out: RequestLogEntry[] = [];
    for (let k = 0; k < this.size; k += 1) {
      const e = this.ring[(this.next + k) % this.size];
      if (e) out.push({ ...e });
    }
    return out;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
  }
}

export interface SandboxStats {
  requests: { total: number; byEndpoint: Record<Endpoint, number> };
  rateLimited: number;
  faults: Record<FaultKind, number>;
}

export function emptyByEndpoint(): Record<Endpoint, number> {
  return Object.fromEntries(ENDPOINTS.map((e) => [e, 0])) as Record<Endpoint, number>;
}
