// Options of startSandbox (docs/sandbox.md, Options) and their defaults. Defaults follow the interface's
// Limits section: 500 requests a minute per IP, a 10-minute block, an 8-second server time-out.
import { ANOMALY_KINDS, FAULT_KINDS, isAnomalyKind, isFaultKind, type AnomalyKind, type FaultKind } from './kinds.js';

export interface RateLimitOptions {
  limit?: number;
  windowMs?: number;
  blockMs?: number;
  /** Add a Retry-After header (seconds) to 429 answers. */
  retryAfter?: boolean;
}

export interface AnomalyOptions {
  rate?: number;
  kinds?: AnomalyKind[];
  plant?: Array<{ index: number; kind: AnomalyKind }>;
}

export interface FaultOptions {
  rate?: number;
  kinds?: FaultKind[];
  /** Share of `/files` answers whose links are already expired. */
  expiredLinkRate?: number;
  /** The k newest disbursements are hidden at first and appear one per list page served. */
  appearWhilePaging?: number;
  /**
   * Every list envelope counts this many entries fewer than the list serves (total_entries, and
   * total_pages from it): the interface's envelope gives "total number of results" and "total number of
   * pages", and of its lists it says "the list can lag" (Payment (details)).
   */
  lagTotals?: number;
}

/**
 * What the interface allows a service to do that a friendly server would not (docs/sandbox.md, Realism).
 * Each is off unless asked for; `profile: 'realistic'` turns them all on.
 */
export interface RealismOptions {
  /** Child lists and /files in another order on each read (§ Conventions: no order is promised). */
  shuffleOrder?: boolean;
  /** Object fields in another order in every answer (§ Conventions: "Parameters in responses can appear in any order"). */
  shuffleFields?: boolean;
  /** per_page above this answered 422 with an errors object naming the maximum (§ Limits: "Maximum value of per_page: not shown"). */
  rejectPerPageAbove?: number;
  /** Links carry expiry=<seconds from now> (§ Limits: links "expire after the duration in the link's expiry query parameter"). */
  durationExpiry?: boolean;
  /** Share of downloads answered with a 302 to the same file (links are only said to be pre-signed, not where they lead). */
  redirectRate?: number;
  /** Share of downloads sent in 8 slices with this pause between them (§ Limits time out requests, not downloads). */
  slowFileRate?: number;
  slowFileSliceDelayMs?: number;
  /** Share of payments whose details answer 403 (a key may lack a permission: § Authentication). */
  refusePaymentRate?: number;
}

const REALISTIC: Required<RealismOptions> = {
  shuffleOrder: true,
  shuffleFields: true,
  rejectPerPageAbove: 50,
  durationExpiry: true,
  redirectRate: 0.2,
  slowFileRate: 0.1,
  slowFileSliceDelayMs: 40,
  refusePaymentRate: 0.05,
};

const FRIENDLY: Required<RealismOptions> = {
  shuffleOrder: false,
  shuffleFields: false,
  rejectPerPageAbove: 0,
  durationExpiry: false,
  redirectRate: 0,
  slowFileRate: 0,
  slowFileSliceDelayMs: 0,
  refusePaymentRate: 0,
};

export interface SandboxOptions {
  /** 'friendly' (default: tests that need a plain server) or 'realistic' (make run, the acceptance test). */
  profile?: 'friendly' | 'realistic';
  realism?: RealismOptions;
  host?: string;
  port?: number;
  seed?: number | string;
  disbursements?: number;
  recipients?: number;
  payoutsPerDisbursement?: number;
  endDate?: string;
  months?: number;
  apiKey?: string;
  authFailureStatus?: 401 | 500;
  maxPerPage?: number;
  rateLimit?: RateLimitOptions;
  serverTimeoutMs?: number;
  latencyMs?: [number, number];
  linkTtlSeconds?: number;
  anomalies?: AnomalyOptions;
  faults?: FaultOptions;
  now?: () => number;
  requestLogSize?: number;
}

export interface ResolvedFaults {
  rate: number;
  kinds: FaultKind[];
  expiredLinkRate: number;
  appearWhilePaging: number;
  lagTotals: number;
}

export interface Resolved {
  host: string;
  port: number;
  seed: string;
  disbursements: number;
  recipients: number;
  payoutsPerDisbursement: number;
  endDateMs: number;
  months: number;
  apiKey: string;
  authFailureStatus: 401 | 500;
  maxPerPage: number;
  rateLimit: Required<RateLimitOptions>;
  serverTimeoutMs: number;
  latencyMs: [number, number];
  linkTtlSeconds: number;
  anomalies: { rate: number; kinds: AnomalyKind[]; plant: Array<{ index: number; kind: AnomalyKind }> };
  faults: ResolvedFaults;
  now: () => number;
  requestLogSize: number;
  realism: Required<RealismOptions>;
}

function fail(message: string): never {
  throw new RangeError(`sandbox options: ${message}`);
}

function int(name: string, value: number | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min || v > max) fail(`${name} must be an integer in [${min}, ${max}], got ${String(value)}`);
  return v;
}

function rate(name: string, value: number | undefined): number {
  const v = value ?? 0;
  if (!Number.isFinite(v) || v < 0 || v > 1) fail(`${name} must be a number in [0, 1], got ${String(value)}`);
  return v;
}

export function resolveFaults(faults: FaultOptions | undefined): ResolvedFaults {
  const kinds = faults?.kinds ?? [...FAULT_KINDS];
  for (const k of kinds) if (!isFaultKind(k)) fail(`unknown fault kind '${String(k)}'`);
  if (kinds.length === 0) fail('faults.kinds must not be empty');
  return {
    rate: rate('faults.rate', faults?.rate),
    kinds,
    expiredLinkRate: rate('faults.expiredLinkRate', faults?.expiredLinkRate),
    appearWhilePaging: int('faults.appearWhilePaging', faults?.appearWhilePaging, 0, 0),
    lagTotals: int('faults.lagTotals', faults?.lagTotals, 0, 0),
  };
}

export function resolveOptions(options: SandboxOptions = {}): Resolved {
  const disbursements = int('disbursements', options.disbursements, 200, 0);
  const endDateMs = Date.parse(options.endDate ?? '2026-10-31T22:00:00Z');
  if (Number.isNaN(endDateMs)) fail(`endDate is not an ISO timestamp: ${String(options.endDate)}`);
  const latency = options.latencyMs ?? [0, 0];
  if (!(latency[0] >= 0 && latency[1] >= latency[0])) fail('latencyMs must be [min, max] with 0 ≤ min ≤ max');
  const authFailureStatus = options.authFailureStatus ?? 401;
  if (authFailureStatus !== 401 && authFailureStatus !== 500) fail('authFailureStatus must be 401 or 500');
  const kinds = options.anomalies?.kinds ?? [...ANOMALY_KINDS];
  for (const k of kinds) if (!isAnomalyKind(k)) fail(`unknown anomaly kind '${String(k)}'`);
  const plant = options.anomalies?.plant ?? [];
  for (const p of plant) {
    if (!isAnomalyKind(p.kind)) fail(`unknown anomaly kind '${String(p.kind)}'`);
    int('anomalies.plant[].index', p.index, 0, 0, Math.max(0, disbursements - 1));
  }
  const faults = resolveFaults(options.faults);
  if (faults.appearWhilePaging > disbursements) fail('faults.appearWhilePaging exceeds disbursements');
  return {
    host: options.host ?? '127.0.0.1',
    port: int('port', options.port, 0, 0, 65535),
    seed: String(options.seed ?? 1),
    disbursements,
    recipients: int('recipients', options.recipients, 6, 1, 10_000),
    payoutsPerDisbursement: int('payoutsPerDisbursement', options.payoutsPerDisbursement, 20, 1, 10_000),
    endDateMs,
    months: int('months', options.months, 6, 1, 1200),
    apiKey: options.apiKey ?? 'sandbox-key',
    authFailureStatus,
    maxPerPage: int('maxPerPage', options.maxPerPage, 100, 1),
    rateLimit: {
      limit: int('rateLimit.limit', options.rateLimit?.limit, 500, 1, 1_000_000),
      windowMs: int('rateLimit.windowMs', options.rateLimit?.windowMs, 60_000, 1),
      blockMs: int('rateLimit.blockMs', options.rateLimit?.blockMs, 600_000, 0),
      retryAfter: options.rateLimit?.retryAfter ?? false,
    },
    serverTimeoutMs: int('serverTimeoutMs', options.serverTimeoutMs, 8000, 1),
    latencyMs: [latency[0], latency[1]],
    linkTtlSeconds: int('linkTtlSeconds', options.linkTtlSeconds, 900, 1),
    anomalies: { rate: rate('anomalies.rate', options.anomalies?.rate), kinds, plant },
    faults,
    now: options.now ?? Date.now,
    requestLogSize: int('requestLogSize', options.requestLogSize, 100_000, 1),
    realism: resolveRealism(options),
  };
}

function resolveRealism(options: SandboxOptions): Required<RealismOptions> {
  const base = options.profile === 'realistic' ? REALISTIC : FRIENDLY;
  const r = { ...base, ...options.realism };
  if (options.profile !== undefined && options.profile !== 'realistic' && options.profile !== 'friendly') fail(`profile must be 'friendly' or 'realistic', got ${String(options.profile)}`);
  return {
    ...r,
    rejectPerPageAbove: int('realism.rejectPerPageAbove', r.rejectPerPageAbove, 0, 0),
    redirectRate: rate('realism.redirectRate', r.redirectRate),
    slowFileRate: rate('realism.slowFileRate', r.slowFileRate),
    slowFileSliceDelayMs: int('realism.slowFileSliceDelayMs', r.slowFileSliceDelayMs, 0, 0, 60_000),
    refusePaymentRate: rate('realism.refusePaymentRate', r.refusePaymentRate),
  };
}
