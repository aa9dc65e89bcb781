// Recording a month's close: its disbursements and the close row, in one transaction. The statements
// live in sql/close/ (one file per statement, like the checks).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { SQL_DIR } from '../paths.js';
import { inTransaction } from './transaction.js';
import { inMonth } from '../month.js';

const statement = (name: string) => readFileSync(path.join(SQL_DIR, 'close', `${name}.sql`), 'utf8');
const RECORD_DISBURSEMENTS = statement('record_disbursements');
const RECORD_CLOSE = statement('record_close');

export async function recordClose(c: DuckDBConnection, o: { month: string; version: number; at: Date; runId: string; workbook: string }): Promise<void> {
  await inTransaction(c, async () => {
    await c.run(RECORD_DISBURSEMENTS.replaceAll(':in_month', inMonth(o.month)), [o.month, o.version]);
    await c.run(RECORD_CLOSE, [o.month, o.version, o.at.toISOString(), o.runId, o.workbook]);
  });
}

/** The latest version a month was closed in; 0 when it never was. */
export async function closedVersion(c: DuckDBConnection, month: string): Promise<number> {
  return Number((await c.runAndReadAll('SELECT coalesce(max(version), 0) FROM closes WHERE month = $1', [month])).getRowsJS()[0]?.[0] ?? 0);
}

/** How many disbursements were delivered in the month (UTC). */
export async function disbursementsInMonth(c: DuckDBConnection, month: string): Promise<number> {
  return Number((await c.runAndReadAll(`SELECT count(*) FROM disbursements WHERE ${inMonth(month)}`)).getRowsJS()[0]?.[0] ?? 0);
}
