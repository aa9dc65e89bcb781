// The long lists of the workbooks, read page by page: every disbursement's reconciliation, its bank
// status, the provider's credits that settled nothing, and the link from a finding to its disbursement's
// row. Each page is its own keyset query, so the caller may use the connection between pages and no page
// holds more than `pageSize` rows. A month narrows a list to what the close of that month shows; `listed`
// reads the rows a workbook lists, chosen once (listed.ts).
import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from '../sql-text.js';
import { LISTED_BANK, LISTED_DISBURSEMENTS } from './listed.js';
import type { BankCreditRow, BankRow, DisbursementRow, FindingRow } from './types.js';

/** The rows of `from` matching `where`, ordered by the `key` columns, page by page. */
async function* keysetRows(
  connection: DuckDBConnection, select: string, from: string, key: readonly string[], where: string, pageSize: number,
): AsyncGenerator<Record<string, unknown>> {
  const tuple = `(${key.join(', ')})`;
  let after: string[] | null = null;
  for (;;) {
    const cursor: string = after === null ? 'TRUE' : `${tuple} > (${key.map((_, i) => `$${i + 1}`).join(', ')})`;
    const reader = await connection.runAndReadAll(
      `SELECT ${select} FROM ${from} WHERE ${cursor} AND (${where}) ORDER BY ${key.join(', ')} LIMIT ${pageSize}`, after ?? [],
    );
    const rows: Array<Record<string, unknown>> = reader.getRowObjectsJS();
    yield* rows;
    if (rows.length < pageSize) return;
    const last: Record<string, unknown> = rows[rows.length - 1]!;
    after = key.map((k) => String(last[k]));
  }
}

/** What narrows a list: the disbursements delivered in a month ('YYYY-MM', UTC), those listed (listed.ts), or all. */
interface MonthFilter {
  month?: string;
  pageSize?: number;
  /** The rows chosen by listNight or listMonth (their TEMP tables), instead of the views. */
  listed?: boolean;
}

const deliveredIn = (o: MonthFilter) => (o.month === undefined ? 'TRUE' : `month_of(delivered_at) = ${sqlString(o.month)}`);

/** Every disbursement with its reconciliation status, by keyset pages of the reconciliation view. */
export async function* reconciliationRows(connection: DuckDBConnection, o: MonthFilter = {}): AsyncGenerator<DisbursementRow> {
  const select = `disbursement_id, recipient_id, delivered_at, currency, reported, computed, difference, status,
    open_findings + acknowledged_findings AS findings, payouts_sum, refunds_sum, credits_sum, debits_sum`;
  const from = o.listed ? LISTED_DISBURSEMENTS : 'reconciliation';
  for await (const r of keysetRows(connection, select, from, ['disbursement_id'], deliveredIn(o), o.pageSize ?? 5000)) {
    yield {
      disbursementId: String(r.disbursement_id),
      recipientId: String(r.recipient_id ?? ''),
      deliveredAt: r.delivered_at as Date,
      currency: String(r.currency ?? ''),
      reported: BigInt(r.reported as bigint),
      computed: r.computed === null ? null : BigInt(r.computed as bigint),
      difference: r.difference === null ? null : BigInt(r.difference as bigint),
      status: r.status as DisbursementRow['status'],
      findings: Number(r.findings),
      payouts: BigInt((r.payouts_sum ?? 0) as bigint),
      refunds: BigInt((r.refunds_sum ?? 0) as bigint),
      credits: BigInt((r.credits_sum ?? 0) as bigint),
      debits: BigInt((r.debits_sum ?? 0) as bigint),
    };
  }
}

/** Every disbursement's bank status (bank_status view), by keyset pages. */
export async function* bankRows(connection: DuckDBConnection, o: MonthFilter = {}): AsyncGenerator<BankRow> {
  const select = 'disbursement_id, delivered_at, currency, amount, bank_account_number, bank_status, credited_on, statement_id, matched_by_reference, '
    + 'match_kind, credit_amount, fee, batch_size, bank_difference, uncovered_on';
  const from = o.listed ? LISTED_BANK : 'bank_status';
  for await (const r of keysetRows(connection, select, from, ['disbursement_id'], deliveredIn(o), o.pageSize ?? 5000)) {
    yield {
      disbursementId: String(r.disbursement_id), deliveredAt: r.delivered_at as Date, currency: String(r.currency ?? ''),
      amount: BigInt((r.amount ?? 0) as bigint), account: (r.bank_account_number as string | null) ?? null,
      status: r.bank_status as BankRow['status'], creditedOn: (r.credited_on as Date | null) ?? null,
      statementId: (r.statement_id as string | null) ?? null, byReference: (r.matched_by_reference as boolean | null) ?? null,
      matchKind: (r.match_kind as BankRow['matchKind']) ?? null, creditAmount: r.credit_amount === null ? null : BigInt(r.credit_amount as bigint),
      fee: r.fee === null ? null : BigInt(r.fee as bigint), batchSize: r.batch_size === null ? null : Number(r.batch_size),
      bankDifference: r.bank_difference === null || r.bank_difference === undefined ? null : BigInt(r.bank_difference as bigint),
      uncoveredOn: (r.uncovered_on as Date | null | undefined) ?? null,
    };
  }
}

/**
 * The provider's credits that settled nothing (bank_unmatched_credits with a reason), by keyset pages; a
 * month narrows them to those credited in it; `others` adds the credits from others than the provider
 * (reason 'other'), which the close accounts for too.
 */
export async function* bankCredits(connection: DuckDBConnection, o: CreditFilter = {}): AsyncGenerator<BankCreditRow> {
  const select = 'statement_id, entry_ref, credited_on, currency, amount, COALESCE(reason, \'other\') AS reason, disbursement_id, counterparty, remittance, account, file_name';
  for await (const r of keysetRows(connection, select, 'bank_unmatched_credits', ['statement_id', 'entry_ref'], creditsWhere(o), o.pageSize ?? 5000)) {
    yield {
      creditedOn: r.credited_on as Date, currency: String(r.currency), amount: BigInt(r.amount as bigint), reason: String(r.reason),
      disbursementId: (r.disbursement_id as string | null) ?? null, counterparty: (r.counterparty as string | null) ?? null,
      remittance: (r.remittance as string | null) ?? null, account: String(r.account), fileName: (r.file_name as string | null) ?? null,
    };
  }
}

type CreditFilter = { creditedIn?: string; pageSize?: number; others?: boolean };

const creditsWhere = (o: CreditFilter) => `${o.others ? 'TRUE' : 'reason IS NOT NULL'}${o.creditedIn === undefined ? '' : ` AND strftime(credited_on, '%Y-%m') = ${sqlString(o.creditedIn)}`}`;

/** How many credits bankCredits yields with the same filter (a sheet counts its rows before writing them). */
export async function countCredits(connection: DuckDBConnection, o: CreditFilter = {}): Promise<number> {
  return Number((await connection.runAndReadAll(`SELECT count(*) FROM bank_unmatched_credits WHERE ${creditsWhere(o)}`)).getRows()[0]![0]);
}

/** True when any bank statement was imported: only then do the workbooks carry the Bank sheets. */
export async function hasBankData(connection: DuckDBConnection): Promise<boolean> {
  return (await connection.runAndReadAll('SELECT EXISTS (SELECT 1 FROM bank_transactions)')).getRows()[0]![0] === true;
}

/** The statement files a run's --bank-dir refused or skipped, each as "file: where: why". */
export async function bankRefusals(connection: DuckDBConnection, runId: string): Promise<string[]> {
  return (await connection.runAndReadAll('SELECT reason FROM bank_refusals WHERE run_id = $1 ORDER BY file_name, reason', [runId])).getRows().map((r) => String(r[0]));
}

/** Findings looked up together: one query per batch finds their disbursements' rows. */
const LINK_BATCH = 5000;

/** Where the listed disbursements are on the Disbursements sheet: the first one's row and how many it holds. */
interface SheetPlace {
  firstRow: number;
  shown: number;
}

/**
 * Adds to each finding the row its disbursement has on the Disbursements sheet, which lists the rows of
 * listNight / listMonth in disbursement order from `place.firstRow` on (the first `place.shown` of them),
 * so the workbook can link the two. One query per batch of findings; a disbursement not on the sheet gets no row.
 */
export async function* withDisbursementRows(
  connection: DuckDBConnection, findings: AsyncIterable<FindingRow>, place: SheetPlace,
): AsyncGenerator<FindingRow> {
  let batch: FindingRow[] = [];
  const flush = async function* (): AsyncGenerator<FindingRow> {
    const ids = [...new Set(batch.map((f) => f.disbursementId).filter((id): id is string => id !== null))];
    const rows = new Map<string, number>();
    if (ids.length > 0) {
      const reader = await connection.runAndReadAll(
        `SELECT disbursement_id, place FROM ${LISTED_DISBURSEMENTS}
         WHERE disbursement_id IN (SELECT unnest($1::VARCHAR[])) AND place < $2`,
        [listValue(ids), place.shown],
      );
      for (const [id, at] of reader.getRowsJS()) rows.set(String(id), place.firstRow + Number(at));
    }
    for (const f of batch) yield { ...f, disbursementRow: f.disbursementId === null ? null : rows.get(f.disbursementId) ?? null };
    batch = [];
  };
  for await (const finding of findings) {
    batch.push(finding);
    if (batch.length >= LINK_BATCH) yield* flush();
  }
  yield* flush();
}
