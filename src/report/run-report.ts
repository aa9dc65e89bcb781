// The morning workbook of a run, read from the store: summary, the run's findings (with their lifecycle)
// and every disbursement's reconciliation. Rows stream page by page; nothing is held whole.
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { latestFindings, type CheckRunResult } from '../checks/index.js';
import { writeExceptionWorkbook, type WrittenWorkbook } from './exceptions-workbook.js';
import { replaceAtomically } from './workbook-file.js';
import type { DisbursementRow, FindingRow, RunSummary } from './types.js';

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

/** Every disbursement with its reconciliation status, by keyset pages of the reconciliation view. */
export async function* reconciliationRows(connection: DuckDBConnection, where = 'TRUE', pageSize = 5000): AsyncGenerator<DisbursementRow> {
  let after = '';
  for (;;) {
    const reader = await connection.runAndReadAll(
      `SELECT disbursement_id, recipient_id, delivered_at, currency, reported, computed, difference, status,
              open_findings + acknowledged_findings AS findings, payouts_sum, refunds_sum, credits_sum, debits_sum
         FROM reconciliation WHERE disbursement_id > $1 AND (${where}) ORDER BY disbursement_id LIMIT ${pageSize}`,
      [after],
    );
    const rows = reader.getRowObjectsJS();
    for (const r of rows) {
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
    if (rows.length < pageSize) return;
    after = String(rows[rows.length - 1]!.disbursement_id);
  }
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
  const findings: AsyncIterable<FindingRow> = flatten(latestFindings(connection, opts.runId, { includeResolved: true }));
  const written = await writeExceptionWorkbook(workbookPath(opts.reportsDir, opts.runId, opts.checks.checkedAt), {
    summary,
    findings,
    disbursements: reconciliationRows(connection),
  });
  await replaceAtomically(written.path, path.join(opts.reportsDir, LATEST_WORKBOOK));
  return written;
}
