// recon's schema in PostgreSQL follows the code as the store does: sql/postgres/schema/NNN_*.sql, each
// applied once, in order, in a transaction of its own, recorded in the schema's schema_migrations (its
// version, for whoever reads the schema: SELECT max(version) FROM recon.schema_migrations).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SQL_DIR } from '../paths.js';
import { sqlIdent } from '../store/sql-text.js';
import { WarehouseRefusedError, type Warehouse } from './connection.js';

const SCHEMA_DIR = path.join(SQL_DIR, 'postgres', 'schema');

interface Migration {
  version: number;
  name: string;
  sql: string;
}

export async function migrations(): Promise<Migration[]> {
  const names = (await readdir(SCHEMA_DIR)).filter((n) => n.endsWith('.sql')).sort();
  return Promise.all(names.map(async (name) => {
    const version = Number(/^(\d+)_/.exec(name)?.[1]);
    if (!Number.isInteger(version)) throw new Error(`sql/postgres/schema/${name} must be named NNN_<what>.sql`);
    return { version, name, sql: await readFile(path.join(SCHEMA_DIR, name), 'utf8') };
  }));
}

/**
 * The schema exists (made now when the role may create it) and carries every migration. Returns the
 * migrations applied now. Run under the schema's lock (export.ts), so two exports never migrate at once.
 */
export async function prepareSchema(w: Warehouse): Promise<string[]> {
  const schema = w.target.schema;
  const [present] = await w.select<{ present: boolean }>('schema_exists', [schema]);
  if (!present?.present) {
    await w.exec('create_schema', { schema: sqlIdent(schema) }).catch((err: Error) => {
      throw new WarehouseRefusedError(
        `schema ${schema} does not exist in ${w.target.id} and this role may not create it (${err.message}); ` +
          `as an administrator: CREATE SCHEMA ${schema} AUTHORIZATION <the export's role> (README: PostgreSQL)`,
      );
    });
  }
  await w.exec('migrations_table');
  const done = new Set((await w.select<{ version: number }>('migrations_applied')).map((r) => Number(r.version)));
  const applied: string[] = [];
  for (const m of await migrations()) {
    if (done.has(m.version)) continue;
    await w.transaction(async () => {
      await w.client.query(m.sql).catch((err: Error) => {
        throw new WarehouseRefusedError(
          `PostgreSQL migration sql/postgres/schema/${m.name} failed in ${w.target.id}: ${err.message}`,
        );
      });
      await w.exec('record_migration', {}, [m.version, m.name]);
    });
    applied.push(m.name);
  }
  return applied;
}
