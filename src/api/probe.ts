// One plain GET against the service for `recon doctor`: the answer's status, its Date header (the
// service's clock) and, when it failed, the error class the client would have raised. No retries and no
// budget: the doctor sends a handful of requests, and says what a night would meet instead of riding it out.
import { Agent, request } from 'undici';
import { errorFromResponse, type ApiError } from './errors.js';
import { redact } from './redact.js';

export interface ProbeAnswer {
  status: number;
  /** The service's Date header, when it sent one. */
  date: Date | null;
  /** Local time when the answer came, and how long it took (the clock check allows for the trip). */
  receivedAt: number;
  tookMs: number;
  /** The parsed JSON body of a 2xx answer (null when not JSON). */
  json: unknown;
  /** The error the client would raise for a non-2xx answer. */
  error: ApiError | null;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** GET {baseUrl}/payments/v1{path}; a network failure throws (the caller words it). */
export async function probe(
  baseUrl: string, apiKey: string, path: string, o: { timeoutMs: number; now?: () => number } = { timeoutMs: 10_000 },
): Promise<ProbeAnswer> {
  const now = o.now ?? Date.now;
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}/payments/v1${path}`);
  const dispatcher = new Agent({ connections: 1, headersTimeout: o.timeoutMs, bodyTimeout: o.timeoutMs });
  const sent = now();
  try {
    const res = await request(url, {
      method: 'GET', dispatcher, signal: AbortSignal.timeout(o.timeoutMs * 2),
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-authentication-key': apiKey },
    });
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) break;
      chunks.push(chunk as Buffer);
    }
    const receivedAt = now();
    const text = redact(Buffer.concat(chunks).toString('utf8'), [apiKey]);
    const header = res.headers.date;
    const parsedDate = typeof header === 'string' ? new Date(header) : null;
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    let json: unknown = null;
    if (ok) {
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
    }
    return {
      status: res.statusCode,
      date: parsedDate && Number.isFinite(parsedDate.getTime()) ? parsedDate : null,
      receivedAt,
      tookMs: receivedAt - sent,
      json,
      error: ok ? null : errorFromResponse(res.statusCode, path, text, res.headers),
    };
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
}
