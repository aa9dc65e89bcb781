// The morning workbook of a run, read from the store: summary, the run's findings (with their lifecycle)
// and every disbursement's reconciliation. Rows stream page by page; nothing is held whole.
import path from 'node:path';
import { listValue, type DuckDBConnection } from '@duckdb/node-api';
import { latestFindings, type CheckRunResult } from '../checks/index.js';
import { addDays } from 'date-fns';
import { readMonthShape } from './month-sheet.js';
import { writeExceptionWorkbook, type WrittenWorkbook } from './exceptions-workbook.js';
import { replaceAtomically } from './workbook-file.js';
import { sqlIdent } from '../store/sql-text.js';
import type { BankCreditRow, BankRow, BankSheets, DisbursementRow, FindingRow, RunSummary } from './types.js';

/** recon-2026-11-23-070307Z-f434.xlsx: the day once, then the rest of the run id (time and suffix). */
function workbookPath(reportsDir: string, runId: string, at: Date): string {
  const day = at.toISOString().slice(0, 10);
  const rest = runId.startsWith(day.replaceAll('-', '')) ? runId.replace(/^\d{8}T/, '') : runId;
  return path.join(reportsDir, `recon-${day}-${rest}.xlsx`);
}

/** The stable name to bookmark: always the latest run's workbook. */
const LATEST_WORKBOOK = 'recon-latest.xlsx';

async function* flatten<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const page of pages) yield* page;
}

/**
 * The rows of `from` matching `where` (recon's own SQL), ordered by the `key` columns, page by page: each
 * page is its own keyset query, so the caller may use the connection between pages and no page holds more
 * than `pageSize` rows.
 */
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

/** Every disbursement with its reconciliation status, by keyset pages of the reconciliation view. */
export async function* reconciliationRows(connection: DuckDBConnection, where = 'TRUE', pageSize = 5000): AsyncGenerator<DisbursementRow> {
  const select = `disbursement_id, recipient_id, delivered_at, currency, reported, computed, difference, status,
    open_findings + acknowledged_findings AS findings, payouts_sum, refunds_sum, credits_sum, debits_sum`;
  for await (const r of keysetRows(connection, select, 'reconciliation', ['disbursement_id'], where, pageSize)) {
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

/** The 31 days up to the newest delivery in the store (the data's own last day, whatever the clock says). */
async function recentShape(connection: DuckDBConnection) {
  const newest = (await connection.runAndReadAll('SELECT max(delivered_at) FROM disbursements')).getRowsJS()[0]?.[0];
  if (!(newest instanceof Date)) return undefined;
  const to = addDays(new Date(`${newest.toISOString().slice(0, 10)}T00:00:00Z`), 1);
  const from = addDays(to, -31);
  return readMonthShape(connection, `31 days to ${addDays(to, -1).toISOString().slice(0, 10)}`, from, to);
}

/** True when any bank statement was imported: only then do the workbooks carry the Bank sheets. */
export async function hasBankData(connection: DuckDBConnection): Promise<boolean> {
  return (await connection.runAndReadAll('SELECT EXISTS (SELECT 1 FROM bank_transactions)')).getRows()[0]![0] === true;
}

/**
 * Runs `fn` with the bank matching computed once: while a workbook is written nothing changes the store
 * (the run holds the lock), so bank_matches is copied into a TEMP table of the same name, which every bank
 * view and the Bank sheets' pages read instead of repeating the matching (as the check runner does).
 */
export async function withBankMatches<T>(connection: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  const db = String((await connection.runAndReadAll('SELECT current_database()')).getRows()[0]![0]);
  await connection.run(`CREATE OR REPLACE TEMP TABLE bank_matches AS SELECT * FROM ${sqlIdent(db)}.main.bank_matches`);
  try {
    return await fn();
  } finally {
    await connection.run('DROP TABLE IF EXISTS temp.main.bank_matches');
  }
}

/** The statement files a run's --bank-dir refused or skipped, each as "file: where: why". */
export async function bankRefusals(connection: DuckDBConnection, runId: string): Promise<string[]> {
  return (await connection.runAndReadAll('SELECT reason FROM bank_refusals WHERE run_id = $1 ORDER BY file_name, reason', [runId])).getRows().map((r) => String(r[0]));
}

/** Every disbursement's bank status (bank_status view), by keyset pages; `where` is recon's own SQL. */
export async function* bankRows(connection: DuckDBConnection, where = 'TRUE', pageSize = 5000): AsyncGenerator<BankRow> {
  const select = 'disbursement_id, delivered_at, currency, amount, bank_account_number, bank_status, credited_on, statement_id, matched_by_reference, '
    + 'match_kind, credit_amount, fee, batch_size';
  for await (const r of keysetRows(connection, select, 'bank_status', ['disbursement_id'], where, pageSize)) {
    yield {
      disbursementId: String(r.disbursement_id), deliveredAt: r.delivered_at as Date, currency: String(r.currency ?? ''),
      amount: BigInt((r.amount ?? 0) as bigint), account: (r.bank_account_number as string | null) ?? null,
      status: r.bank_status as BankRow['status'], creditedOn: (r.credited_on as Date | null) ?? null,
      statementId: (r.statement_id as string | null) ?? null, byReference: (r.matched_by_reference as boolean | null) ?? null,
      matchKind: (r.match_kind as BankRow['matchKind']) ?? null, creditAmount: r.credit_amount === null ? null : BigInt(r.credit_amount as bigint),
      fee: r.fee === null ? null : BigInt(r.fee as bigint), batchSize: r.batch_size === null ? null : Number(r.batch_size),
    };
  }
}

/** The provider's credits that settled nothing (bank_unmatched_credits with a reason), by keyset pages. */
export async function* bankCredits(connection: DuckDBConnection, where = 'TRUE', pageSize = 5000): AsyncGenerator<BankCreditRow> {
  const select = 'statement_id, entry_ref, credited_on, currency, amount, reason, disbursement_id, counterparty, remittance, account, file_name';
  for await (const r of keysetRows(connection, select, 'bank_unmatched_credits', ['statement_id', 'entry_ref'], `reason IS NOT NULL AND (${where})`, pageSize)) {
    yield {
      creditedOn: r.credited_on as Date, currency: String(r.currency), amount: BigInt(r.amount as bigint), reason: String(r.reason),
      disbursementId: (r.disbursement_id as string | null) ?? null, counterparty: (r.counterparty as string | null) ?? null,
      remittance: (r.remittance as string | null) ?? null, account: String(r.account), fileName: (r.file_name as string | null) ?? null,
    };
  }
}

/** The run's Bank sheets: with statements in the store, or with files this run refused. */
async function runBankSheets(connection: DuckDBConnection, runId: string): Promise<BankSheets | undefined> {
  const refusedFiles = await bankRefusals(connection, runId);
  if (!(await hasBankData(connection)) && refusedFiles.length === 0) return undefined;
  return { disbursements: bankRows(connection), credits: bankCredits(connection), refusedFiles };
}

/** Findings looked up together: one query per batch finds their disbursements' rows. */
const LINK_BATCH = 2000;

/**
 * Adds to each finding the row its disbursement has on the Disbursements sheet that
 * reconciliationRows(connection, where) writes (header on row 1, then by disbursement id), so the
 * workbook can link the two. One ranking query per batch of findings; a disbursement not on the sheet
 * gets no row.
 */
export async function* withDisbursementRows(
  connection: DuckDBConnection, findings: AsyncIterable<FindingRow>, where = 'TRUE',
): AsyncGenerator<FindingRow> {
  let batch: FindingRow[] = [];
  const flush = async function* (): AsyncGenerator<FindingRow> {
    const ids = [...new Set(batch.map((f) => f.disbursementId).filter((id): id is string => id !== null))];
    const rows = new Map<string, number>();
    if (ids.length > 0) {
      const reader = await connection.runAndReadAll(
        `WITH sheet AS (SELECT disbursement_id, row_number() OVER (ORDER BY disbursement_id) + 1 AS sheet_row
                          FROM reconciliation WHERE (${where}))
         SELECT disbursement_id, sheet_row FROM sheet WHERE disbursement_id IN (SELECT unnest($1::VARCHAR[]))`,
        [listValue(ids)],
      );
      for (const [id, row] of reader.getRowsJS()) rows.set(String(id), Number(row));
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

async function runSummary(connection: DuckDBConnection, runId: string, serviceUrl: string, checks: CheckRunResult): Promise<RunSummary> {
  const run = (await connection.runAndReadAll('SELECT started_at, finished_at FROM runs WHERE run_id = $1', [runId])).getRowObjectsJS()[0];
  const totals = (await connection.runAndReadAll(
    `SELECT currency, count(*) AS n, CAST(sum(reported) AS HUGEINT) AS reported, CAST(coalesce(sum(computed), 0) AS HUGEINT) AS computed,
            CAST(coalesce(sum(difference), 0) AS HUGEINT) AS difference,
            CAST(coalesce(sum(payouts_sum), 0) AS HUGEINT) AS payouts, CAST(coalesce(sum(refunds_sum), 0) AS HUGEINT) AS refunds,
            CAST(coalesce(sum(credits_sum), 0) AS HUGEINT) AS credits, CAST(coalesce(sum(debits_sum), 0) AS HUGEINT) AS debits
       FROM reconciliation GROUP BY currency ORDER BY currency`,
  )).getRowObjectsJS();
  const lookups = (await connection.runAndReadAll(
    `SELECT count(*), count(*) FILTER (WHERE http_status IS DISTINCT FROM 200 AND http_status IS DISTINCT FROM 404)
       FROM payment_samples WHERE sampled_run_id = $1`, [runId])).getRows()[0] ?? [0, 0];
  return {
    runId,
    paymentLookups: { sampled: Number(lookups[0]), unverified: Number(lookups[1]) },
    startedAt: (run?.started_at as Date | undefined) ?? checks.checkedAt,
    // the workbook is written inside the run, before it is recorded as finished: the checks' time stands in
    finishedAt: (run?.finished_at as Date | null | undefined) ?? checks.checkedAt,
    serviceUrl,
    disbursementsChecked: totals.reduce((n, t) => n + Number(t.n), 0),
    byCheck: checks.byCheck,
    byStatus: { new: checks.byStatus.new, open: checks.byStatus.open, acknowledged: checks.byStatus.acknowledged, resolved: checks.byStatus.resolved },
    totalsByCurrency: totals.map((t) => ({
      currency: String(t.currency),
      disbursements: Number(t.n),
      reported: BigInt(t.reported as bigint),
      computed: BigInt(t.computed as bigint),
      difference: BigInt(t.difference as bigint),
      payouts: BigInt(t.payouts as bigint),
      refunds: BigInt(t.refunds as bigint),
      credits: BigInt(t.credits as bigint),
      debits: BigInt(t.debits as bigint),
    })),
  };
}

export async function writeRunWorkbook(
  connection: DuckDBConnection,
  opts: { runId: string; reportsDir: string; serviceUrl: string; checks: CheckRunResult },
): Promise<WrittenWorkbook> {
  const summary = await runSummary(connection, opts.runId, opts.serviceUrl, opts.checks);
  const findings = withDisbursementRows(connection, flatten(latestFindings(connection, opts.runId, { includeResolved: true })));
  const written = await withBankMatches(connection, async () => writeExceptionWorkbook(workbookPath(opts.reportsDir, opts.runId, opts.checks.checkedAt), {
    summary,
    month: await recentShape(connection),
    findings,
    disbursements: reconciliationRows(connection),
    bank: await runBankSheets(connection, opts.runId),
  }));
  await replaceAtomically(written.path, path.join(opts.reportsDir, LATEST_WORKBOOK));
  return written;
}
