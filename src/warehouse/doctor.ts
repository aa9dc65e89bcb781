// recon doctor's look at the PostgreSQL export (--export-postgres): the connection (TLS as sslmode says),
// and the role's rights — it must use and create in its schema (or create the schema when it is absent),
// and should have nothing more (a superuser works, but a night's export then could touch anything).
import { Warehouse } from './connection.js';
import type { PostgresTarget } from './target.js';

interface WarehouseCheck {
  verdict: 'OK' | 'WARN' | 'FAIL';
  reason: string;
}

interface Rights {
  role_name: string;
  server_version: string;
  superuser: boolean;
  schema_present: boolean;
  schema_rights: boolean | null;
  database_create: boolean;
  ssl: boolean | null;
}

export async function checkWarehouse(target: PostgresTarget): Promise<WarehouseCheck> {
  let w: Warehouse;
  try {
    w = await Warehouse.connect(target);
  } catch (err) {
    return { verdict: 'FAIL', reason: (err as Error).message };
  }
  try {
    const [r] = await w.select<Rights>('rights', [target.schema]);
    if (!r) return { verdict: 'FAIL', reason: `${target.id}: the role's rights could not be read` };
    const who = `${target.id} as ${r.role_name} (PostgreSQL ${r.server_version}, ${r.ssl ? 'TLS' : 'no TLS'}, ` +
                  `sslmode=${target.sslmode})`;
    if (r.schema_present && !r.schema_rights) {
      return {
        verdict: 'FAIL',
        reason: `${who}: the role may not use and create in schema ${target.schema}; GRANT USAGE, CREATE ON SCHEMA ` +
                  `${target.schema} TO ${r.role_name} (or make it the schema's owner)`,
      };
    }
    if (!r.schema_present && !r.database_create) {
      return {
        verdict: 'FAIL',
        reason: `${who}: schema ${target.schema} does not exist and the role may not create it; CREATE SCHEMA ` +
                  `${target.schema} AUTHORIZATION ${r.role_name}`,
      };
    }
    if (r.superuser)
      return {
        verdict: 'WARN',
        reason: `${who}: the role is a superuser; the export needs only its schema (README: PostgreSQL)`,
      };
    return {
      verdict: 'OK',
      reason: `${who}: ${r.schema_present ? `may write schema ` +
                                              `${target.schema}` : `will create schema ${target.schema}`}`,
    };
  } catch (err) {
    return { verdict: 'FAIL', reason: (err as Error).message };
  } finally {
    await w.close();
  }
}
