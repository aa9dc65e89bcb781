// The queries the outlets run, one file each under sql/outlets (the file name is the query's name).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SQL_DIR } from '../paths.js';

const cache = new Map<string, string>();

export function outletSql(name: 'money_at_stake' | 'findings_by_check' | 'run_findings' | 'bank_status_counts'): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(path.join(SQL_DIR, 'outlets', `${name}.sql`), 'utf8').trim().replace(/;\s*$/, '');
    cache.set(name, text);
  }
  return text;
}
