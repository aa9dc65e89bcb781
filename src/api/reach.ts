// Before the first request of a run: can the service's host be found and does anything listen on its
// port? A mistyped --api-url fails in seconds with a sentence naming the setting, instead of minutes of
// retries (a slow or failing service is still retried by the client as usual).
import { lookup as dnsLookup } from 'node:dns/promises';
import { connect } from 'node:net';
import { UsageError } from '../errors.js';

interface ReachOptions {
  timeoutMs?: number;
  lookup?: (host: string) => Promise<{ address: string }>;
}

const SETTING = 'check --api-url / PAYMENTS_API_URL';

/** Throws a UsageError when the host has no address or refuses connections; anything else passes. */
export async function assertReachable(apiUrl: string, opts: ReachOptions = {}): Promise<void> {
  const url = new URL(apiUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let address: string;
  try {
    address = (await (opts.lookup ?? ((h: string) => dnsLookup(h)))(host)).address;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'lookup failed';
    throw new UsageError(`cannot find the payments service's host ${host} (DNS ${code}); ${SETTING}`);
  }
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host: address, port });
    const done = (err?: Error) => {
      socket.destroy();
      if (err) reject(err);
      else resolve();
    };
    socket.setTimeout(opts.timeoutMs ?? 5_000, () => done()); // slow is not wrong: the client's retries handle it
    socket.once('connect', () => done());
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH'].includes(err.code ?? '')) {
        done(new UsageError(`nothing answers at ${host}:${port} (${err.code}); ${SETTING}`));
      } else {
        done();
      }
    });
  });
}
