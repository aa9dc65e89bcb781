// A view computed once into a TEMP table of the same name, while nothing changes the store (a check run's
// transaction, a workbook written under the run lock): unqualified names resolve to the temp catalog
// first, so every query and view that reads it reads the rows already computed.
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlIdent } from './sql-text.js';
import { withoutInsertionOrder } from './db.js';

/** The name of the store's database (qualifies its own tables where TEMP tables of the same name exist). */
export async function currentDatabase(c: DuckDBConnection): Promise<string> {
  return String((await c.runAndReadAll('SELECT current_database()')).getRows()[0]![0]);
}

/** Each view (in the order given: one built on another comes after it) into a TEMP table of its name. */
export async function materialiseViews(c: DuckDBConnection, views: readonly string[]): Promise<void> {
  if (views.length === 0) return;
  const db = sqlIdent(await currentDatabase(c));
  // read by joins, never by their rows' places
  await withoutInsertionOrder(c, async () => {
    for (const view of views) await c.run(`CREATE OR REPLACE TEMP TABLE ${sqlIdent(view)} AS SELECT * FROM ${db}.main.${sqlIdent(view)}`);
  });
}

/** The TEMP copies gone, the views read again. */
export async function dropMaterialised(c: DuckDBConnection, views: readonly string[]): Promise<void> {
  for (const view of [...views].reverse()) await c.run(`DROP TABLE IF EXISTS temp.main.${sqlIdent(view)}`);
}

/** Runs `fn` with the views materialised, and drops them after. */
export async function withMaterialised<T>(c: DuckDBConnection, views: readonly string[], fn: () => Promise<T>): Promise<T> {
  await materialiseViews(c, views);
  try {
    return await fn();
  } finally {
    await dropMaterialised(c, views);
  }
}
