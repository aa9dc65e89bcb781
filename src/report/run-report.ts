// The morning workbook of a run: summary, the run's findings (with their lifecycle), every disbursement's
// reconciliation and bank status, read from the store's marts (src/store/read) and written by
// exceptions-workbook.ts. Rows stream page by page; nothing is held whole.
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { addDays } from 'date-fns';
import { describeChecks, latestFindings, type CheckRunResult } from '../checks/index.js';
import { withMaterialised } from '../store/materialise.js';
import { bankCredits, bankRefusals, bankRows, hasBankData, reconciliationRows, withDisbursementRows } from '../store/read/rows.js';
import { currencyStakes, monthShape, newestDelivery, runFacts } from '../store/read/summaries.js';
import type { Rates } from '../rates.js';
import { causeAgeing } from '../store/read/ageing.js';
import { writeExceptionWorkbook, type WrittenWorkbook } from './exceptions-workbook.js';
import { replaceAtomically } from './workbook-file.js';
import { preferCompactHeap } from '../ops/memory.js';
import type { BankSheets, RunSummary } from './types.js';

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

/** The 31 days up to the newest delivery in the store (the data's own last day, whatever the clock says). */
async function recentShape(connection: DuckDBConnection) {
  const newest = await newestDelivery(connection);
  if (newest === null) return undefined;
  const to = addDays(new Date(`${newest.toISOString().slice(0, 10)}T00:00:00Z`), 1);
  const from = addDays(to, -31);
  return monthShape(connection, `31 days to ${addDays(to, -1).toISOString().slice(0, 10)}`, from, to);
}

/**
 * Runs `fn` with the bank matching computed once: while a workbook is written nothing changes the store
 * (the run holds the lock), so every bank view and the Bank sheets' pages read one copy of bank_matches
 * instead of repeating the matching (as the check runner does).
 */
export function withBankMatches<T>(connection: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  return withMaterialised(connection, ['bank_matches'], fn);
}

/** The run's Bank sheets: with statements in the store, or with files this run refused. */
async function runBankSheets(connection: DuckDBConnection, runId: string): Promise<BankSheets | undefined> {
  const refusedFiles = await bankRefusals(connection, runId);
  if (!(await hasBankData(connection)) && refusedFiles.length === 0) return undefined;
  return { disbursements: bankRows(connection), credits: bankCredits(connection), refusedFiles };
}

async function runSummary(connection: DuckDBConnection, runId: string, serviceUrl: string, checks: CheckRunResult): Promise<RunSummary> {
  const facts = await runFacts(connection, runId);
  return {
    runId,
    paymentLookups: facts.lookups,
    startedAt: facts.startedAt ?? checks.checkedAt,
    // the workbook is written inside the run, before it is recorded as finished: the checks' time stands in
    finishedAt: facts.finishedAt ?? checks.checkedAt,
    serviceUrl,
    disbursementsChecked: facts.totals.reduce((n, t) => n + t.disbursements, 0),
    byCheck: checks.byCheck,
    byStatus: { new: checks.byStatus.new, open: checks.byStatus.open, acknowledged: checks.byStatus.acknowledged, resolved: checks.byStatus.resolved },
    totalsByCurrency: facts.totals,
  };
}

export async function writeRunWorkbook(
  connection: DuckDBConnection,
  opts: { runId: string; reportsDir: string; serviceUrl: string; checks: CheckRunResult; rates?: Rates | null },
): Promise<WrittenWorkbook> {
  // every page of rows lives until its cells are written, then is garbage: held to the sync's heap growth
  // (`recon run` has it from its sync already; `recon report` the same). A 10M-payout night's workbook:
  // peak 359–364 → 306–311 MB, JS heap 83–90 → 35–36 MB (docs/performance.md)
  preferCompactHeap();
  const summary = await runSummary(connection, opts.runId, opts.serviceUrl, opts.checks);
  summary.rates = opts.rates ?? null;
  const findings = withDisbursementRows(connection, flatten(latestFindings(connection, opts.runId, { includeResolved: true, rates: opts.rates ?? null })));
  const written = await withBankMatches(connection, async () => writeExceptionWorkbook(workbookPath(opts.reportsDir, opts.runId, opts.checks.checkedAt), {
    summary: { ...summary, stakes: await currencyStakes(connection, opts.runId, await hasBankData(connection)),
      ageing: await causeAgeing(connection, opts.runId, opts.checks.checkedAt) },
    month: await recentShape(connection),
    findings,
    disbursements: reconciliationRows(connection),
    bank: await runBankSheets(connection, opts.runId),
    checks: await describeChecks(),
  }));
  await replaceAtomically(written.path, path.join(opts.reportsDir, LATEST_WORKBOOK));
  return written;
}
