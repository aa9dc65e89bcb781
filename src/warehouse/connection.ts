// One connection to the team's PostgreSQL, as the export and recon doctor use it: connected with the
// target's TLS settings, the schema on its search_path, and every failure turned into one line that says
// what to do and holds no password.
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { oneLine, TransientError, TerminalError } from '../errors.js';
import { redact } from '../api/redact.js';
import { sqlText } from '../store/sql.js';
import { sqlIdent } from '../store/sql-text.js';
import { asTransaction } from '../store/transaction.js';
import type { PostgresTarget } from './target.js';

/** The server could not be reached or went away: the next export may succeed. */
export class WarehouseUnreachableError extends TransientError {
  override readonly name = 'WarehouseUnreachableError';
}

/** The server refused (rights, a missing schema, a type): something must be changed first. */
export class WarehouseRefusedError extends TerminalError {
  override readonly name = 'WarehouseRefusedError';
}

const CONNECT_TIMEOUT_MS = 15_000;
/** SQLSTATE classes of a refusal rather than a lost connection: rights, names, data, configuration. */
const REFUSAL = /^(28|42|22|23|3D|3F|0A)/;

/** The error as one redacted line, classed: lost connection (transient) or refusal (terminal). */
function warehouseError(target: PostgresTarget, what: string, err: unknown): Error {
  const e = err as Error & { code?: string };
  const text = oneLine(redact(`${what} (${target.id}): ${e.message ?? String(err)}`, target.secrets));
  if (e.code === '42501')
    return new WarehouseRefusedError(
      `${text}; the role needs CREATE and USAGE on schema ${target.schema} (README: PostgreSQL)`,
    );
  if (e.code === '28P01' || e.code === '28000')
    return new WarehouseRefusedError(
      `${text}; check the user and password of --export-postgres / RECON_EXPORT_POSTGRES_URL`,
    );
  if (typeof e.code === 'string' && REFUSAL.test(e.code)) return new WarehouseRefusedError(text);
  return new WarehouseUnreachableError(text);
}

export class Warehouse {
  private constructor(
    readonly client: pg.Client,
    readonly target: PostgresTarget,
  ) {}

  static async connect(target: PostgresTarget): Promise<Warehouse> {
    const client = new pg.Client({
      host: target.host,
      port: target.port,
      database: target.database,
      user: target.user,
      password: target.password,
      ssl: target.ssl,
      application_name: 'recon',
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // a connection lost between statements is reported by the next one; without a listener node would crash on it
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => undefined);
      throw warehouseError(target, 'cannot connect to PostgreSQL', err);
    }
    const w = new Warehouse(client, target);
    try {
      await w.exec('session', { schema: sqlIdent(target.schema) });
      const version = Number(
        (await w.select<{ server_version_num: string }>('server_version'))[0]?.server_version_num ?? 0,
      );
      if (version >= 140000) await w.exec('check_connection_gone');
    } catch (err) {
      await w.close();
      throw err;
    }
    return w;
  }

  /** Runs sql/postgres/<name>.sql with `parts` spliced in and `params` bound. */
  async exec(name: string, parts: Record<string, string> = {}, params: unknown[] = []): Promise<pg.QueryResult> {
    return this.run(sqlText(`postgres/${name}`, parts), params, name);
  }

  /** The rows of sql/postgres/<name>.sql. */
  async select<T>(name: string, params: unknown[] = [], parts: Record<string, string> = {}): Promise<T[]> {
    return (await this.exec(name, parts, params)).rows as T[];
  }

  private async run(text: string, params: unknown[], what: string): Promise<pg.QueryResult> {
    try {
      return await this.client.query(text, params);
    } catch (err) {
      throw warehouseError(this.target, `PostgreSQL refused ${what}`, err);
    }
  }

  /** A transaction: everything in `work` commits together or not at all. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    // sql/postgres/begin.sql, commit.sql and rollback.sql
    return asTransaction((step) => this.exec(step), work);
  }

  /** COPY … FROM STDIN into `table`: `feed` writes COPY text to the stream (awaiting drain), then it ends. */
  async copyIn(
    table: string,
    columns: readonly string[],
    feed: (write: (text: string) => Promise<void>) => Promise<number>,
  ): Promise<number> {
    const sql = sqlText('postgres/copy_in', { table: sqlIdent(table), columns: columns.map(sqlIdent).join(', ') });
    let stream: Writable;
    try {
      stream = this.client.query(copyStreams.from(sql));
    } catch (err) {
      throw warehouseError(this.target, `PostgreSQL refused the COPY into ${table}`, err);
    }
    let failed: Error | null = null;
    const done = new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', (err) => {
        failed = err;
        reject(err);
      });
    });
    done.catch(() => undefined);
    const write = async (text: string) => {
      if (failed) throw failed;
      if (!stream.write(text)) await once(stream, 'drain'); // rejects when the stream fails meanwhile
    };
    try {
      const rows = await feed(write);
      stream.end();
      await done;
      return rows;
    } catch (err) {
      if (!failed) stream.destroy(err as Error);
      throw warehouseError(this.target, `the COPY into ${table} failed`, failed ?? err);
    }
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
