// Recording a month's close: its disbursements, the close row, its journal and journal files and its audit-trail
// entries, in one transaction. The statements live in sql/close/ (one file per statement, like the checks).
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { canonicalJson, storeEntries, type TrailEntry } from './trail.js';
import { closeContent } from './trail-content.js';
import { inTransaction } from './transaction.js';
import { sqlText } from './sql.js';

/** Unaccounted money a person accepted for a close: who, why, and what (the workbook's words). */
export interface CloseAcceptance {
  by: string;
  note: string;
  accepted: string[];
}

/** A line of a close version's journal as booked: the account of the user's books and the amounts (subunits). */
export interface BookedLine {
  currency: string;
  role: string;
  account: string;
  code: string;
  name: string;
  description: string;
  debit: bigint;
  credit: bigint;
}

/** A journal file a close version wrote (close_journal_files). */
export interface BookedFile {
  format: string;
  currency: string;
  kind: 'entry' | 'reversal';
  /** Whose lines the file books: the writing version's (entry) or the reversed version's. */
  entryVersion: number;
  journalNo: string;
  file: string;
  provisional: boolean;
}

export interface CloseRecord {
  /** What the close's trail entry says of it (src/close/controls.ts closeEntry); the stored row must say the same. */
  row: Record<string, unknown>;
  /** The close's trail entry, then any chained after it (its evidence pack's). */
  entries: readonly TrailEntry[];
  /** The Journal as booked (src/close/precision.ts), line by line; what a reissue's reversals undo. */
  journal?: readonly BookedLine[];
  files?: readonly BookedFile[];
}

/**
 * Records a close: its disbursements, the close row, its journal and journal files and its audit-trail entries,
 * in one transaction. The row as stored must say what its entry says, or nothing is recorded.
 */
export async function recordClose(c: DuckDBConnection, o: CloseRecord): Promise<void> {
  const { row } = o;
  const entry = o.entries[0]!;
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
    const lineNo = new Map<string, number>();
    for (const l of o.journal ?? []) {
      const n = (lineNo.get(l.currency) ?? 0) + 1;
      lineNo.set(l.currency, n);
      await c.run(sqlText('close/insert_journal_line'), [v('month'), v('version'), l.currency, n, l.role, l.account,
        l.code, l.name, l.description, l.debit.toString(), l.credit.toString()]);
    }
    for (const f of o.files ?? []) {
      await c.run(sqlText('close/insert_journal_file'), [v('month'), v('version'), f.format, f.currency, f.kind,
        f.entryVersion, f.journalNo, f.file, f.provisional]);
    }
    await storeEntries(c, o.entries);
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

/** An entry a format's files booked for the month and nothing reversed yet: what the next version reverses. */
interface StandingEntry {
  currency: string;
  version: number;
  journalNo: string;
  lines: BookedLine[];
}

export async function standingEntries(c: DuckDBConnection, month: string, format: string): Promise<StandingEntry[]> {
  const rows = (await c.runAndReadAll(sqlText('close/standing_entries'), [month, format])).getRowObjectsJS();
  const out = new Map<string, StandingEntry>();
  for (const r of rows) {
    const currency = String(r.currency);
    const entry = out.get(currency) ?? {
      currency,
      version: Number(r.version),
      journalNo: String(r.journal_no),
      lines: [],
    };
    entry.lines.push({
      currency,
      role: String(r.role),
      account: String(r.account),
      code: String(r.code),
      name: String(r.name),
      description: String(r.description),
      debit: BigInt(String(r.debit)),
      credit: BigInt(String(r.credit)),
    });
    out.set(currency, entry);
  }
  return [...out.values()];
}

/**
 * The books' time zone: month_of counts calendar months in it, so the close, monthly_summary,
 * currency_suspense and bank_month_split agree on where a month ends. `tz` is an IANA zone the caller
 * validated; DuckDB refusing it is an error here, before anything is written.
 */
export async function setBooksTz(c: DuckDBConnection, tz: string): Promise<void> {
  await c.run('SELECT strftime(now() AT TIME ZONE $1, \'%Y\')', [tz]);
  await c.run('UPDATE books_settings SET tz = $1', [tz]);
}

/** The latest version a month was closed in; 0 when it never was. */
export async function closedVersion(c: DuckDBConnection, month: string): Promise<number> {
  return Number(
    (
      await c.runAndReadAll('SELECT coalesce(max(version), 0) FROM closes WHERE month = $1', [month])
    ).getRowsJS()[0]?.[0] ?? 0,
  );
}

/** How many disbursements were delivered in the month (UTC). */
export async function disbursementsInMonth(c: DuckDBConnection, month: string): Promise<number> {
  return Number(
    (
      await c.runAndReadAll('SELECT count(*) FROM disbursements WHERE month_of(delivered_at) = $1', [month])
    ).getRowsJS()[0]?.[0] ?? 0,
  );
}
