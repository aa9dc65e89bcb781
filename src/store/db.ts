// Opening the DuckDB store: migrations (sql/schema/NNN_*.sql, applied once each, in order, recorded in
// schema_migrations) and the views and macros of sql/macros, sql/staging and sql/marts (objects.ts: re-created
// on every open so they follow the code, each after the objects it reads). The versions recorded in
// schema_migrations are the store's schema version: a store that records one this recon does not have was
// written by a newer recon, and is refused before anything in it is changed.
import { inTransaction } from './transaction.js';
import { TerminalError, oneLine } from '../errors.js';
import { readdir, readFile } from 'node:fs/promises';
import { makeFolder } from '../files.js';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { SQL_DIR } from '../paths.js';
import { sqlObjects } from './objects.js';
import { seedTrail, TRAIL_MIGRATION } from './trail-seed.js';

/** What a migration needs done in TypeScript, in its own transaction, after its SQL: the trail's seed. */
const AFTER_MIGRATION: Readonly<Record<number, (c: DuckDBConnection) => Promise<unknown>>> = {
  [TRAIL_MIGRATION]: seedTrail,
};

export interface Store {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
  path: string;
  close(): void;
}

class StoreError extends TerminalError {
  override readonly name = 'StoreError';
}

/** Open (creating if needed) the store at dbPath, apply pending migrations and (re)create the views. */
export async function openStore(dbPath: string): Promise<Store> {
  if (dbPath !== ':memory:') await makeFolder(path.dirname(path.resolve(dbPath)));
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(dbPath);
  } catch (err) {
    const message = oneLine((err as Error).message);
    const hint = /Could not set lock/i.test(message)
      ? '; another program holds it open (DuckDB allows one writer): close it — accountants read the published copy with recon sql'
      : '';
    throw new StoreError(`cannot open the DuckDB store ${dbPath}: ${message}${hint}`);
  }
  const connection = await instance.connect();
  try {
    await migrate(connection, dbPath);
    await createViews(connection);
  } catch (err) {
    connection.closeSync();
    instance.closeSync();
    throw err;
  }
  return {
    instance,
    connection,
    path: dbPath,
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

async function sqlFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.sql')).sort();
}

/** The migrations this recon has, by version (sql/schema/NNN_<what>.sql). */
async function knownMigrations(schemaDir: string): Promise<Map<number, string>> {
  const known = new Map<number, string>();
  for (const name of await sqlFiles(schemaDir)) {
    const version = Number(/^(\d+)_/.exec(name)?.[1]);
    if (!Number.isInteger(version)) throw new StoreError(`migration ${name} must be named NNN_<what>.sql`);
    known.set(version, name);
  }
  return known;
}

/**
 * Why this recon must not open a store that records these schema versions, or null. A version it does
 * not have means a newer recon (or another branch) shaped the tables: writing with an older idea of them
 * could lose or misread what the newer one keeps.
 */
function newerSchema(
  recorded: Array<{ version: number; name: string }>, known: ReadonlyMap<number, string>, dbPath: string,
): string | null {
  const unknown = recorded.filter((r) => !known.has(r.version)).sort((a, b) => a.version - b.version);
  if (unknown.length === 0) return null;
  const ours = Math.max(0, ...known.keys());
  const theirs = unknown[unknown.length - 1]!;
  const what = theirs.version > ours
    ? `was written by a newer recon (schema version ${theirs.version}, ${theirs.name}; this recon knows up to ${ours})`
    : `records schema change ${theirs.version} (${theirs.name}) that this recon does not have`;
  return `the store ${dbPath} ${what}; it was left unchanged — run the recon that wrote it, or a newer one`;
}

async function migrate(connection: DuckDBConnection, dbPath: string): Promise<string[]> {
  const schemaDir = path.join(SQL_DIR, 'schema');
  const known = await knownMigrations(schemaDir);
  await connection.run(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL)',
  );
  const recorded = (await connection.runAndReadAll('SELECT version, name FROM schema_migrations')).getRows()
    .map((r) => ({ version: Number(r[0]), name: String(r[1]) }));
  const refusal = newerSchema(recorded, known, dbPath);
  if (refusal) throw new StoreError(refusal);
  const done = new Set(recorded.map((r) => r.version));
  const applied: string[] = [];
  for (const [version, name] of [...known].sort((a, b) => a[0] - b[0])) {
    if (done.has(version)) continue;
    const sql = await readFile(path.join(schemaDir, name), 'utf8');
    await inTransaction(connection, async () => {
      await connection.run(sql);
      await AFTER_MIGRATION[version]?.(connection);
      await connection.run('INSERT INTO schema_migrations VALUES ($1, $2, now())', [version, name]);
    }).catch((err: unknown) => {
      throw new StoreError(`migration ${name} failed: ${(err as Error).message}`);
    });
    applied.push(name);
  }
  return applied;
}

/** Views and macros are code, not data: re-created from sql/ on every open, each after what it reads. */
async function createViews(connection: DuckDBConnection): Promise<void> {
  for (const object of await sqlObjects()) {
    try {
      await connection.run(object.sql);
    } catch (err) {
      throw new StoreError(`${object.file} failed: ${(err as Error).message}`);
    }
  }
}

/** DuckDB's memory limit, instance-wide (a RESET would not bring a job's own limit back: set by value). */
export async function setMemoryLimit(connection: DuckDBConnection, mb: number): Promise<void> {
  await connection.run(`SET memory_limit = '${Math.trunc(mb)}MB'`);
}

/** Writes what is committed from the WAL into the store file (DuckDB's CHECKPOINT), under the memory limit set now. */
export async function checkpoint(connection: DuckDBConnection): Promise<void> {
  await connection.run('CHECKPOINT');
}

/**
 * Runs `fn` with DuckDB free to store rows in any order (preserve_insertion_order off): its INSERTs and
 * CREATE TABLE AS then keep no buffers to hold their input's order, which for a check run of a million
 * findings was the difference between spilling and running out of --memory-mb (docs/performance.md). Only
 * for statements whose rows are read back by key or joined, never by their place in the table. Nests: the
 * setting is put back as it was.
 */
export async function withoutInsertionOrder<T>(connection: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  const before =
    (await connection.runAndReadAll(`SELECT current_setting('preserve_insertion_order')`)).getRows()[0]![0] !== false;
  const restore = () => connection.run(`SET preserve_insertion_order = ${before}`);
  await connection.run('SET preserve_insertion_order = false');
  let out: T;
  try {
    out = await fn();
  } catch (err) {
    await restore().catch(() => undefined);
    throw err;
  }
  await restore();
  return out;
}
