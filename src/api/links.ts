// Where a pre-signed file link may point. The link comes from the service, so it is untrusted: it must not
// make recon read a local file, another protocol, a service on this machine or on the private network
// (whose answer would end up in the store), nor send a signature in clear over the internet. Checked on
// the link and on every redirect, and — for names — on the address the name resolves to, before any
// connection is made.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

export interface LinkPolicy {
  /** The API itself is on this machine (the sandbox, a test): loopback links are then expected. */
  apiIsLoopback: boolean;
  /** --insecure-http: plain http to a host that is not this machine is allowed. */
  insecureHttp: boolean;
}

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost']);

function ipv4Parts(ip: string): number[] | null {
  const parts = ip.split('.').map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255) ? parts : null;
}

/** 127/8, ::1 and IPv4-mapped loopback. */
export function isLoopbackAddress(ip: string): boolean {
  const v4 = ipv4Parts(ip.replace(/^::ffff:/i, ''));
  if (v4) return v4[0] === 127;
  return ip === '::1';
}

/**
 * Loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16, fe80::/10), unspecified, CGNAT.
 */
export function isInternalAddress(ip: string): boolean {
  if (isLoopbackAddress(ip)) return true;
  const v4 = ipv4Parts(ip.replace(/^::ffff:/i, ''));
  if (v4) {
    const [a, b] = v4 as [number, number, number, number];
    return (
      a === 0 ||
      a === 10 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  const lower = ip.toLowerCase();
  return lower === '::' || /^f[cd][0-9a-f]{2}:/.test(lower) || /^fe[89ab][0-9a-f]:/.test(lower);
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/** Why recon will not fetch this link, or null when it may (names are checked again once resolved). */
export function linkRefusal(url: URL, policy: LinkPolicy): string | null {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `its scheme ${url.protocol} is not http(s)`;
  if (url.username || url.password) return 'it carries credentials';
  const host = hostOf(url);
  const literal = isIP(host) !== 0;
  const local = LOOPBACK_NAMES.has(host) || (literal && isLoopbackAddress(host));
  if (!policy.apiIsLoopback && (local || (literal && isInternalAddress(host)))) {
    return `it points at ${local ? 'this machine' : 'a private or link-local address'} (${host})`;
  }
  if (url.protocol === 'http:' && !local && !policy.insecureHttp)
    return 'it is plain http:// to another host (its signature would travel in clear)';
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the download connections: resolves as usual, then refuses an internal address unless the
 * API is itself on loopback. The refusal happens before connecting.
 */
export function guardedLookup(policy: LinkPolicy) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, []);
      const bad = policy.apiIsLoopback ? undefined : addresses.find((a) => isInternalAddress(a.address));
      if (bad) {
        const refused = Object.assign(
          new Error(`file link host ${hostname} resolves to an internal address (${bad.address}); refused`),
          { code: 'ERECONINTERNAL' },
        );
        return callback(refused, []);
      }
      const all = (options as { all?: boolean }).all === true;
      if (all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}
