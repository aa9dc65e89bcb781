// Recording a month's close: its disbursements and the close row, in one transaction. The statements
// live in sql/close/ (one file per statement, like the checks).
import type { DuckDBConnection } from '@duckdb/node-api';
import { inTransaction } from './transaction.js';
import { sqlText } from './sql.js';

/** Unaccounted money a person accepted for a close (#27): who, why, and what (the workbook's words). */
export interface CloseAcceptance {
  by: string;
  note: string;
  accepted: string[];
}

export async function recordClose(
  c: DuckDBConnection, o: { month: string; version: number; at: Date; runId: string; workbook: string; acceptance?: CloseAcceptance | null },
): Promise<void> {
  const a = o.acceptance && o.acceptance.accepted.length > 0 ? o.acceptance : null;
  await inTransaction(c, async () => {
    await c.run(sqlText('close/record_disbursements'), [o.month, o.version]);
    await c.run(sqlText('close/record_close'), [o.month, o.version, o.at.toISOString(), o.runId, o.workbook,
      a?.by ?? null, a?.note ?? null, a ? a.accepted.join('; ') : null]);
  });
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
