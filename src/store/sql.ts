// recon's own queries live in sql/ as files (one SQL file per object, readable without TypeScript); code
// names a query by its path under sql/ and gets its text. A query that must splice in another statement (a
// check's SELECT) or a word (a generic check's kind) marks the place with {{name}} (never in a comment: the
// text is spliced in whole). fillTemplate is the one place that splices.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { SQL_DIR } from '../paths.js';

const cache = new Map<string, string>();

/** The text of sql/<name>.sql (without a trailing semicolon), with each {{key}} replaced by parts[key]. */
export function sqlText(name: string, parts: Readonly<Record<string, string>> = {}): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(path.join(SQL_DIR, `${name}.sql`), 'utf8').trim().replace(/;\s*$/, '');
    cache.set(name, text);
  }
  return fillTemplate(text, parts, (key) => new Error(`sql/${name}.sql needs {{${key}}}`));
}

/** `text` with each {{key}} replaced by parts[key]; a key without a part throws what `missing` makes of it. */
export function fillTemplate(text: string, parts: Readonly<Record<string, string>>, missing: (key: string) => Error): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => {
    const part = parts[key];
    if (part === undefined) throw missing(key);
    return part;
  });
}

/** The first value of the first row `sql` returns (null when it returns none). */
export async function firstValue(c: DuckDBConnection, sql: string, params: DuckDBValue[] = []): Promise<unknown> {
  return (await c.runAndReadAll(sql, params)).getRows()[0]?.[0] ?? null;
}

/** Whether the connection's database holds the table (or view) main.<name>. */
export async function hasTable(c: DuckDBConnection, name: string): Promise<boolean> {
  const n = await firstValue(c, `SELECT count(*) FROM duckdb_tables() WHERE database_name = current_database()
    AND schema_name = 'main' AND table_name = $1`, [name]);
  return Number(n) > 0;
}
