// A real PostgreSQL for the export's tests, from Debian's package (`postgresql`; .ci/run installs it):
// initdb in a temp folder, a free loopback port, its unix socket in that folder, stopped and removed at the
// end. initdb refuses to run as root, so as root (CI) the server runs as `nobody` (setpriv, else runuser).
// Tests skip only when no PostgreSQL binaries can be found at all.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

const ADMIN = 'recon_admin';

/** The folder of initdb and postgres, or null. RECON_PG_BIN names it where it is unusual. */
export function postgresBinDir(): string | null {
  const candidates: string[] = [];
  if (process.env.RECON_PG_BIN) candidates.push(process.env.RECON_PG_BIN);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    for (const v of readdirSync(debian).sort((a, b) => Number(b) - Number(a))) candidates.push(path.join(debian, v, 'bin'));
  }
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    // no pg_config on PATH
  }
  for (const dir of (process.env.PATH ?? '').split(':')) candidates.push(dir);
  return candidates.find((d) => d && existsSync(path.join(d, 'initdb')) && existsSync(path.join(d, 'postgres'))) ?? null;
}

/** How to run a server binary: as ourselves, or as nobody when we are root. */
function runAs(): { prefix: string[]; uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim());
  const hasSetpriv = (() => {
    try {
      execFileSync('setpriv', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  const prefix = hasSetpriv ? ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'] : ['runuser', '-u', 'nobody', '--'];
  return { prefix, uid, gid };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface PgServer {
  port: number;
  /** The folder of its unix socket (and data). */
  dir: string;
  /** A superuser session on `database` (unix socket, trust). */
  admin(database?: string): Promise<pg.Client>;
  /** Runs one statement as the superuser and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], database?: string): Promise<T[]>;
  /** postgres://user:password@127.0.0.1:port/database (password authentication over TCP). */
  url(user: string, password: string, database: string, params?: string): string;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<PgServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL binaries (apt-get install postgresql)');
  const dir = mkdtempSync(path.join(tmpdir(), 'recon-pg-'));
  const as = runAs();
  if (as) chownSync(dir, as.uid, as.gid);
  const data = path.join(dir, 'data');
  const run = (cmd: string, args: string[]) => [...(as?.prefix ?? []), path.join(bin, cmd), ...args];
  const [initCmd, ...initArgs] = run('initdb', ['-D', data, '-U', ADMIN, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-locale', '--no-sync']);
  execFileSync(initCmd!, initArgs, { stdio: 'ignore' });
  const port = await freePort();
  const logFile = path.join(dir, 'server.log');
  writeFileSync(logFile, '');
  if (as) chownSync(logFile, as.uid, as.gid);
  const [cmd, ...args] = run('postgres', ['-D', data, '-k', dir, '-h', '127.0.0.1', '-p', String(port), '-c', 'fsync=off',
    '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=50', '-c', `logging_collector=off`]);
  const child: ChildProcess = spawn(cmd!, args, { stdio: ['ignore', 'ignore', 'ignore'], detached: false });
  const admin = async (database = 'postgres') => {
    const c = new pg.Client({ host: dir, port, user: ADMIN, database });
    await c.connect();
    return c;
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await (await admin()).end();
      break;
    } catch (err) {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`PostgreSQL did not start: ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port, dir, admin,
    async query<T>(sql: string, params: unknown[] = [], database = 'postgres') {
      const c = await admin(database);
      try {
        return (await c.query(sql, params)).rows as T[];
      } finally {
        await c.end();
      }
    },
    url: (user, password, database, params = '') =>
      `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}${params ? `?${params}` : ''}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT'); // fast shutdown
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The server of the enclosing describe's tests: started before them (then `provision` on it), stopped after them.
 * The handle answers once the tests run (a describe skipped for want of binaries never starts one).
 */
export function postgresForSuite(provision?: (server: PgServer) => Promise<void>): PgServer {
  let started: PgServer | undefined;
  beforeAll(async () => {
    started = await startPostgres();
    await provision?.(started);
  }, 60_000);
  afterAll(async () => {
    await started?.stop();
  });
  const server = (): PgServer => {
    if (!started) throw new Error('the suite\'s PostgreSQL starts before its tests, not while they are collected');
    return started;
  };
  return {
    get port() {
      return server().port;
    },
    get dir() {
      return server().dir;
    },
    admin: (database) => server().admin(database),
    query: <T>(sql: string, params?: unknown[], database?: string) => server().query<T>(sql, params, database),
    url: (user, password, database, params) => server().url(user, password, database, params),
    stop: () => server().stop(),
  };
}

/**
 * The role the README tells a team to make: it logs in, may connect to `database`, owns `schema` (creates
 * and replaces in it) and nothing else. Readers get their own role with SELECT on the schema.
 */
export async function provisionExport(server: PgServer, o: { database: string; schema: string; role: string; password: string; reader?: string }): Promise<void> {
  const exists = await server.query('SELECT 1 FROM pg_database WHERE datname = $1', [o.database]);
  if (exists.length === 0) await server.query(`CREATE DATABASE ${o.database}`);
  await server.query(`CREATE ROLE ${o.role} LOGIN PASSWORD '${o.password.replace(/'/g, "''")}'`);
  const statements = [
    `REVOKE ALL ON DATABASE ${o.database} FROM PUBLIC`,
    `REVOKE CREATE ON SCHEMA public FROM PUBLIC`,
    `GRANT CONNECT ON DATABASE ${o.database} TO ${o.role}`,
    `CREATE SCHEMA ${o.schema} AUTHORIZATION ${o.role}`,
  ];
  if (o.reader) {
    statements.push(`CREATE ROLE ${o.reader} LOGIN PASSWORD 'reader'`, `GRANT CONNECT ON DATABASE ${o.database} TO ${o.reader}`,
      `GRANT USAGE ON SCHEMA ${o.schema} TO ${o.reader}`,
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${o.role} IN SCHEMA ${o.schema} GRANT SELECT ON TABLES TO ${o.reader}`);
  }
  const c = await server.admin(o.database);
  try {
    for (const s of statements) await c.query(s);
  } finally {
    await c.end();
  }
}
