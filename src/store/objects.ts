// The SQL objects recon keeps as code: one macro or view per file, the file name its name.
//   sql/macros/   functions the views and checks call (currency factors, business days, …)
//   sql/staging/  views over the synced tables, which the checks read
//   sql/marts/    views the workbooks and accountants read, some over the checks' findings
// They are created in the order their own text gives: an object comes after every object whose name it
// reads (no number prefixes, no hand-kept list). A view whose header says `materialised: per check run`
// is computed once per check run when two or more of the run's checks read it (src/checks/runner.ts).
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { SQL_DIR } from '../paths.js';

const OBJECT_FOLDERS = ['macros', 'staging', 'marts'] as const;

interface SqlObject {
  name: string;
  kind: 'macro' | 'view';
  folder: (typeof OBJECT_FOLDERS)[number];
  /** sql/<folder>/<name>.sql */
  file: string;
  sql: string;
  /** The other objects it reads, by name. */
  reads: string[];
  /** Computed once per check run when several checks read it. */
  materialised: boolean;
}

const CREATE = /^CREATE (?:OR REPLACE )?(VIEW|MACRO) ([a-z_][a-z0-9_]*)\b/im;

/** The SQL without its comments: a name mentioned in a comment is not a dependency. */
export const withoutComments = (sql: string): string => sql.replace(/--[^\n]*/g, '');

/** Does `sql` (comments removed) read the object `name`? */
export const reads = (sql: string, name: string): boolean => new RegExp(`\\b${name}\\b`, 'i').test(sql);

let cached: Promise<SqlObject[]> | null = null;

/** Every object, in an order in which each comes after what it reads. */
export function sqlObjects(): Promise<SqlObject[]> {
  cached ??= loadObjects();
  return cached;
}

async function loadObjects(): Promise<SqlObject[]> {
  const found: SqlObject[] = [];
  for (const folder of OBJECT_FOLDERS) {
    const names = (await readdir(path.join(SQL_DIR, folder))).filter((n) => n.endsWith('.sql')).sort();
    for (const fileName of names) {
      const file = `sql/${folder}/${fileName}`;
      const sql = await readFile(path.join(SQL_DIR, folder, fileName), 'utf8');
      const m = CREATE.exec(sql);
      const name = fileName.slice(0, -'.sql'.length);
      if (!m || m[2]!.toLowerCase() !== name) throw new Error(`${file} must create one macro or view named ${name}`);
      if ((withoutComments(sql).match(/^CREATE /gim) ?? []).length !== 1)
        throw new Error(`${file} must create exactly one object`);
      found.push({
        name,
        kind: m[1]!.toLowerCase() as SqlObject['kind'],
        folder,
        file,
        sql,
        reads: [],
        materialised: /^-- materialised: per check run/m.test(sql),
      });
    }
  }
  for (const o of found) {
    const code = withoutComments(o.sql).replace(CREATE, '');
    o.reads = found.filter((other) => other !== o && reads(code, other.name)).map((other) => other.name);
  }
  return ordered(found);
}

/** Depth-first: each object after what it reads; a circle is an error naming it. */
function ordered(objects: SqlObject[]): SqlObject[] {
  const byName = new Map(objects.map((o) => [o.name, o]));
  const out: SqlObject[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (o: SqlObject, chain: string[]) => {
    if (state.get(o.name) === 'done') return;
    if (state.get(o.name) === 'visiting')
      throw new Error(`SQL objects read each other in a circle: ${[...chain, o.name].join(' → ')}`);
    state.set(o.name, 'visiting');
    for (const r of o.reads) visit(byName.get(r)!, [...chain, o.name]);
    state.set(o.name, 'done');
    out.push(o);
  };
  for (const o of objects) visit(o, []);
  return out;
}

/** The objects `sql` reads directly or through objects built on them (for the check runner). */
export function readThrough(objects: readonly SqlObject[], sql: string): Set<string> {
  const code = withoutComments(sql);
  const byName = new Map(objects.map((o) => [o.name, o]));
  const seen = new Set<string>();
  const add = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const r of byName.get(name)?.reads ?? []) add(r);
  };
  for (const o of objects) if (reads(code, o.name)) add(o.name);
  return seen;
}

/**
 * A digest of every SQL object's text and of the migrations applied: it changes when anything a check reads may have.
 */
export async function objectsDigest(c: {
  runAndReadAll(sql: string): Promise<{ getRows(): unknown[][] }>;
}): Promise<string> {
  const hash = createHash('sha256');
  for (const o of await sqlObjects()) hash.update(o.file).update('\0').update(o.sql).update('\0');
  hash.update(String((await c.runAndReadAll('SELECT max(version) FROM schema_migrations')).getRows()[0]?.[0]));
  return hash.digest('hex');
}
