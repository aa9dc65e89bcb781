// Recording a month's close: its disbursements and the close row, in one transaction. The statements
// live in sql/close/ (one file per statement, like the checks).
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { canonicalJson, storeEntries, type TrailEntry } from './trail.js';
import { closeContent } from './trail-content.js';
import { inTransaction } from './transaction.js';
import { sqlText } from './sql.js';

/** Unaccounted money a person accepted for a close (#27): who, why, and what (the workbook's words). */
export interface CloseAcceptance {
  by: string;
  note: string;
  accepted: string[];
}

/**
 * Records a close: its disbursements, the close row and its audit-trail entries (the close's, then any chained
 * after it: its evidence pack's), in one transaction. `row` is what the close's entry says of it
 * (src/close/controls.ts closeEntry); the row as stored must say the same, or nothing is recorded.
 */
export async function recordClose(
  c: DuckDBConnection, row: Record<string, unknown>, entries: readonly TrailEntry[],
): Promise<void> {
  const entry = entries[0]!;
  const v = (k: string) => (row[k] instanceof Date ? (row[k] as Date).toISOString() : (row[k] ?? null)) as DuckDBValue;
  await inTransaction(c, async () => {
    await c.run(sqlText('close/record_disbursements'), [v('month'), v('version')]);
    await c.run(sqlText('close/record_close'), [v('month'), v('version'), v('closed_at'), v('run_id'), v('workbook'),
      v('accepted_by'), v('accepted_note'), v('accepted'), v('closed_by'), v('closed_os_user'), v('closed_host'),
      v('accepted_os_user'), v('accepted_host'), v('acceptance_state'), v('approved_by'), v('approved_at'),
      v('approved_os_user'), v('approved_host'),
      BigInt(entry.seq), entry.hash]);
    const read = await c.runAndReadAll(sqlText('close/close_row'), [v('month'), v('version')]);
    const stored = read.getRowObjectsJS()[0]!;
    if (canonicalJson(closeContent(stored)) !== entry.content) {
      throw new Error(`close ${String(row.month)} v${String(row.version)}: the row as stored differs from its `
        + 'audit-trail entry; nothing recorded');
    }
    await storeEntries(c, entries);
  });
}

/** What a close of `month` counts: its disbursements and their amounts summed over currencies (a control figure). */
export async function closeTotals(
  c: DuckDBConnection, month: string,
): Promise<{ disbursements: number; total: bigint }> {
  const r = (await c.runAndReadAll(sqlText('close/close_totals'), [month])).getRowObjectsJS()[0]!;
  return { disbursements: Number(r.disbursements), total: BigInt(r.total as bigint) };
}

/** The month's latest close row, or null. */
export async function latestClose(c: DuckDBConnection, month: string): Promise<Record<string, unknown> | null> {
  return (await c.runAndReadAll(sqlText('close/latest_close'), [month])).getRowObjectsJS()[0] ?? null;
}

/**
 * The books' time zone (#27): month_of counts calendar months in it, so the close, monthly_summary,
 * currency_suspense and bank_month_split agree on where a month ends. `tz` is an IANA zone the caller
 * validated; DuckDB refusing it is an error here, before anything is written.
 */
export async function setBooksTz(c: DuckDBConnection, tz: string): Promise<void> {
  await c.run('SELECT strftime(now() AT TIME ZONE $1, \'%Y\')', [tz]);
  await c.run('UPDATE books_settings SET tz = $1', [tz]);
}

/** The latest version a month was closed in; 0 when it never was. */
export async function closedVersion(c: DuckDBConnection, month: string): Promise<number> {
  return Number((await c.runAndReadAll('SELECT coalesce(max(version), 0) FROM closes WHERE month = $1', [month])).getRowsJS()[0]?.[0] ?? 0);
}

/** How many disbursements were delivered in the month (UTC). */
export async function disbursementsInMonth(c: DuckDBConnection, month: string): Promise<number> {
  return Number((await c.runAndReadAll('SELECT count(*) FROM disbursements WHERE month_of(delivered_at) = $1', [month])).getRowsJS()[0]?.[0] ?? 0);
}
