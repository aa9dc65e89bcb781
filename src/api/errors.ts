// Few error classes, each saying whether to retry (Transient) or stop (Terminal), mapped from the HTTP
// status in one place (`errorFromResponse`). Interface § Errors: the body is {type, title, status
// (number or string), detail, errors}; authentication problems can surface as 500.
import { z } from 'zod';
import { ReconError } from '../errors.js';

const ErrorBodySchema = z.looseObject({
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.union([z.number(), z.string()]).optional(),
  detail: z.string().nullish(),
  errors: z.unknown().optional(),
});
type ErrorBody = z.infer<typeof ErrorBodySchema>;

interface ApiErrorContext {
  status?: number;
  path: string;
  body?: ErrorBody;
  cause?: unknown;
}

export abstract class ApiError extends ReconError {
  readonly status: number | undefined;
  readonly path: string;
  readonly body: ErrorBody | undefined;
  constructor(message: string, ctx: ApiErrorContext) {
    super(message, ctx.cause === undefined ? undefined : { cause: ctx.cause });
    this.status = ctx.status;
    this.path = ctx.path;
    this.body = ctx.body;
  }
}

/** 5xx, network errors, resets, time-outs, truncated or non-JSON bodies: the same GET may succeed. */
export class TransientApiError extends ApiError {
  override readonly name: string = 'TransientApiError';
  readonly transient = true;
}

/** 429: the service blocks this IP for a while; the whole client pauses, then the request is re-sent. */
export class RateLimitedError extends ApiError {
  override readonly name: string = 'RateLimitedError';
  readonly transient = true;
  constructor(
    message: string,
    ctx: ApiErrorContext,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message, ctx);
  }
}

/** Any other 4xx: retrying cannot help. */
export class TerminalApiError extends ApiError {
  override readonly name: string = 'TerminalApiError';
  readonly transient = false;
}

export class NotFoundError extends TerminalApiError {
  override readonly name: string = 'NotFoundError';
}

export class AuthError extends TerminalApiError {
  override readonly name: string = 'AuthError';
}

/** A 2xx answer whose body does not have the expected shape after retries (kept raw by callers). */
export class ResponseShapeError extends TerminalApiError {
  override readonly name: string = 'ResponseShapeError';
}

function parseErrorBody(text: string): ErrorBody | undefined {
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function describe(status: number, path: string, body: ErrorBody | undefined): string {
  const what = [body?.title, body?.detail].filter(Boolean).join(': ');
  return `GET ${path} → ${status}${what ? ` (${what})` : ''}`;
}

/** The single place that maps an HTTP status to an error class. */
export function errorFromResponse(
  status: number,
  path: string,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
): ApiError {
  const body = parseErrorBody(bodyText);
  const ctx = { status, path, body };
  if (status === 429) {
    return new RateLimitedError(
      `${describe(status, path, body)}: rate limit exceeded`,
      ctx,
      retryAfterMs(headers['retry-after']),
    );
  }
  if (status === 401 || status === 403) {
    return new AuthError(
      `${describe(status, path, body)}: the service refused the API key; set PAYMENTS_API_KEY or pass --api-key`,
      ctx,
    );
  }
  if (status === 404) return new NotFoundError(describe(status, path, body), ctx);
  if (status >= 500) {
    // Interface § Authentication 5: a wrong key can come back as 500, so say so once retries run out.
    return new TransientApiError(
      `${describe(status, path, body)}: server error (if it persists, check the API key: authentication problems ` +
        `can surface as 500)`,
      ctx,
    );
  }
  return new TerminalApiError(describe(status, path, body), ctx);
}

function retryAfterMs(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(text);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}
