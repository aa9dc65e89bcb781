// Where the PostgreSQL export writes: the URL (postgres://user:password@host:port/database?sslmode=…), read
// once into what the driver needs, what may be recorded (never the password) and what must be redacted.
// sslmode keeps libpq's meanings: disable (no TLS), require (TLS, certificate not checked; checked against
// sslrootcert when one is named, as libpq does), verify-ca (TLS, certificate signed by sslrootcert),
// verify-full (that, and the host name matches; the system's CAs unless sslrootcert names one). Without an
// sslmode, a password is sent in clear only to this machine (loopback, a unix socket): to another host
// recon refuses, as it refuses plain http:// for the API key.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { UsageError } from '../errors.js';

export interface PostgresTarget {
  host: string;
  port: number;
  database: string;
  user: string | undefined;
  password: string | undefined;
  /** false: no TLS; otherwise node's TLS options for the sslmode. */
  ssl: false | ConnectionOptions;
  sslmode: string;
  schema: string;
  /** Names the database and schema in the store and in messages: no user, no password. */
  id: string;
  /** Redacted from every message: the password, as written in the URL and decoded. */
  secrets: string[];
}

const SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;

/** A schema name recon writes into SQL as an identifier: plain, lower case, at most 63 bytes. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Why `url` cannot be used, or null when it can (the configuration's validation). */
export function postgresUrlProblem(url: string): string | null {
  try {
    parsePostgresUrl(url, 'recon');
    return null;
  } catch (err) {
    return err instanceof UsageError ? err.message : 'not a postgres:// URL';
  }
}

function isLocal(host: string): boolean {
  if (host.startsWith('/')) return true; // a unix socket's folder
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || (isIP(bare) === 4 && bare.startsWith('127.'));
}

function readFileParam(name: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      `cannot read ${name}=${file} of the PostgreSQL URL: ` +
        `${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

function tlsOptions(mode: string, params: URLSearchParams, host: string): false | ConnectionOptions {
  if (mode === 'disable') return false;
  const ca = params.get('sslrootcert');
  const options: ConnectionOptions = {};
  if (ca) options.ca = readFileParam('sslrootcert', ca);
  if (params.get('sslcert')) options.cert = readFileParam('sslcert', params.get('sslcert')!);
  if (params.get('sslkey')) options.key = readFileParam('sslkey', params.get('sslkey')!);
  if (!isIP(host.replace(/^\[|\]$/g, '')) && !host.startsWith('/')) options.servername = host;
  if (mode === 'require' && !ca) return { ...options, rejectUnauthorized: false };
  if (mode === 'require' || mode === 'verify-ca') {
    if (!ca)
      throw new UsageError(
        "sslmode=verify-ca needs sslrootcert=<file> in the PostgreSQL URL (the CA that signed the server's " +
          "certificate)",
      );
    return { ...options, checkServerIdentity: () => undefined };
  }
  return options; // verify-full: node checks the chain and the host name
}

/** Reads the URL; a problem is a UsageError that names what to change (and never quotes the password). */
export function parsePostgresUrl(url: string, schema: string): PostgresTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UsageError(
      'the PostgreSQL URL must look like postgres://user:password@host:5432/database?sslmode=require',
    );
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:')
    throw new UsageError(`the PostgreSQL URL must start with postgres://, got ${u.protocol}//`);
  if (!SCHEMA_NAME.test(schema))
    throw new UsageError(
      `--pg-schema must be a plain lower-case name (letters, digits, _), got ${JSON.stringify(schema.slice(0, 70))}`,
    );
  const params = u.searchParams;
  const host = params.get('host') ?? decodeURIComponent(u.hostname);
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!host)
    throw new UsageError('the PostgreSQL URL names no host (postgres://user@host/database, or ?host=/socket/folder)');
  if (!database) throw new UsageError('the PostgreSQL URL names no database (postgres://user@host:5432/<database>)');
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  const given = params.get('sslmode');
  if (given !== null && !(SSL_MODES as readonly string[]).includes(given)) {
    throw new UsageError(
      `sslmode=${given} cannot be honoured: use ${SSL_MODES.join(', ')} (recon's driver has no fall-back from TLS ` +
        `to clear text)`,
    );
  }
  if (given === null && !isLocal(host)) {
    throw new UsageError(
      `refusing to connect to PostgreSQL on ${host} without TLS: add ?sslmode=verify-full (or require), or ` +
        `sslmode=disable to send the password in clear`,
    );
  }
  const sslmode = given ?? 'disable';
  const port = Number(params.get('port') ?? (u.port || 5432));
  return {
    host, port, database, password, schema, sslmode,
    user: u.username ? decodeURIComponent(u.username) : undefined,
    ssl: tlsOptions(sslmode, params, host),
    id: `postgres://${host.startsWith('/') ? `[${host}]` : u.host}/${database}#${schema}`,
    secrets: [u.password, password].filter((s): s is string => !!s),
  };
}

/** The URL as runs.options may record it: without the password. */
function storablePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.href;
  } catch {
    return '(not a URL)';
  }
}

/** Options as runs.options records them: the export's URL without its password. */
export function storableWarehouseOptions(options: Record<string, unknown>): Record<string, unknown> {
  return typeof options.exportPostgres === 'string'
    ? { ...options, exportPostgres: storablePostgresUrl(options.exportPostgres) }
    : options;
}

/** The secrets a URL carries (its password), for the redaction of every message; none when it cannot be read. */
export function postgresSecrets(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const u = new URL(url);
    return u.password ? [u.password, decodeURIComponent(u.password)] : [];
  } catch {
    return [];
  }
}
