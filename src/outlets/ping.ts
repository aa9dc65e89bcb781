// Health pings in the healthchecks.io convention (its hosted service or a self-hosted Healthchecks):
// <url>/start when a run holds the lock and begins, <url> when it ends with exit 0 or 1, <url>/fail
// on exit 2, and <url>/log (a note that changes nothing) when another run held the lock. A night that
// never pings is the pinger's to notice. The body (healthchecks.io keeps it as the ping's log) is a
// short summary; POST, so the text never lands in a URL.
import { send, type Delivered } from './http.js';
import type { DeliveryLimits } from './limits.js';

type PingEvent = 'start' | 'success' | 'fail' | 'log';

/** The ping URL of an event: a path segment added before any query (?rid=…, ?create=1 stay). */
export function pingUrlFor(base: string, event: PingEvent): string {
  if (event === 'success') return base;
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${event}`;
  return url.href;
}

/** The event an exit code pings: 0 and 1 completed (findings are not a failure of the job), 2 failed, 3 locked. */
export function pingEventFor(code: number): PingEvent {
  if (code === 0 || code === 1) return 'success';
  if (code === 3) return 'log';
  return 'fail';
}

/** healthchecks.io keeps the first 100 kB of a body; a summary needs far less. */
const MAX_BODY_CHARS = 10_000;

export function ping(base: string, event: PingEvent, body: string, limits: DeliveryLimits): Promise<Delivered> {
  return send(
    'POST',
    pingUrlFor(base, event),
    { contentType: 'text/plain; charset=utf-8', text: body.slice(0, MAX_BODY_CHARS) },
    limits,
  );
}
