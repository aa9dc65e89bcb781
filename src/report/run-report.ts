// The morning workbook of a run: summary, the run's findings (with their lifecycle), the reconciliation and
// bank status of what a person acts on — the night's window and every disbursement with a finding not yet
// resolved (src/store/read/listed.ts) — read from the store's marts (src/store/read) and written by
// exceptions-workbook.ts. Rows stream page by page; nothing is held whole.
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { addDays } from 'date-fns';
import { countLatestFindings, describeChecks, latestFindings, type CheckRunResult } from '../checks/index.js';
import { withMaterialised } from '../store/materialise.js';
import {
  bankCredits, bankRefusals, bankRows, countCredits, hasBankData, reconciliationRows, withDisbursementRows,
} from '../store/read/rows.js';
import { currencyStakes, monthShape, newestDelivery, runFacts } from '../store/read/summaries.js';
import { listNight, withListed, type ListedCounts } from '../store/read/listed.js';
import type { Rates } from '../rates.js';
import { causeAgeing } from '../store/read/ageing.js';
import { disbursementsBelow, writeExceptionWorkbook, type WrittenWorkbook } from './exceptions-workbook.js';
import { listLayout } from './list-sheet.js';
import { EXCEL_MAX_ROWS } from './table-sheet.js';
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

/**
 * Runs `fn` with what a workbook reads of every disbursement computed once, as the check runner does: its
 * lines' totals (disbursement_totals: the Summary's totals, the listed rows, the close's lines) and the bank
 * matching.
 */
export function withWorkbookViews<T>(connection: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  return withMaterialised(connection, ['disbursement_totals', 'bank_matches'], fn);
}

/** The run's Bank sheets: with statements in the store, or with files this run refused; the disbursements listed. */
async function runBankSheets(
  connection: DuckDBConnection,
  runId: string,
  listed: ListedCounts,
  bank: boolean,
): Promise<BankSheets | undefined> {
  const refusedFiles = await bankRefusals(connection, runId);
  if (!bank && refusedFiles.length === 0) return undefined;
  return {
    disbursements: bank ? { rows: bankRows(connection, { listed: true }), count: listed.listed } : [],
    credits: { rows: bankCredits(connection), count: await countCredits(connection) },
    refusedFiles,
  };
}

async function runSummary(
  connection: DuckDBConnection,
  runId: string,
  serviceUrl: string,
  checks: CheckRunResult,
): Promise<RunSummary> {
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
    byStatus: {
      new: checks.byStatus.new,
      open: checks.byStatus.open,
      acknowledged: checks.byStatus.acknowledged,
      resolved: checks.byStatus.resolved,
    },
    totalsByCurrency: facts.totals,
  };
}

export async function writeRunWorkbook(
  connection: DuckDBConnection,
  opts: {
    runId: string;
    reportsDir: string;
    serviceUrl: string;
    checks: CheckRunResult;
    rates?: Rates | null;
    maxRows?: number;
  },
): Promise<WrittenWorkbook> {
  // every page of rows lives until its cells are written, then is garbage: held to the sync's heap growth
  // (`recon run` has it from its sync already; `recon report` the same). A 10M-payout night's workbook:
  // peak 359–364 → 306–311 MB, JS heap 83–90 → 35–36 MB (docs/performance.md)
  preferCompactHeap();
  const bank = await hasBankData(connection);
  return withWorkbookViews(connection, () =>
    withListed(
      connection,
      () => listNight(connection, opts.runId, bank),
      async (listed) => {
        const summary = await runSummary(connection, opts.runId, opts.serviceUrl, opts.checks);
        summary.rates = opts.rates ?? null;
        // the Disbursements sheet's rows are known before the Exceptions sheet links to them
        const place = listLayout(
          opts.maxRows ?? EXCEL_MAX_ROWS,
          listed.listed,
          0,
          disbursementsBelow(summary.totalsByCurrency.length),
        );
        const findings = withDisbursementRows(
          connection,
          flatten(latestFindings(connection, opts.runId, { includeResolved: true, rates: opts.rates ?? null })),
          { firstRow: place.headerRow + 1, shown: place.shown },
        );
        const written = await writeExceptionWorkbook(
          workbookPath(opts.reportsDir, opts.runId, opts.checks.checkedAt),
          {
            summary: {
              ...summary,
              stakes: await currencyStakes(connection, opts.runId, bank),
              ageing: await causeAgeing(connection, opts.runId, opts.checks.checkedAt),
            },
            month: await recentShape(connection),
            findings: {
              rows: findings,
              count: await countLatestFindings(connection, opts.runId, { includeResolved: true }),
            },
            disbursements: { rows: reconciliationRows(connection, { listed: true }), count: listed.listed },
            listed,
            bank: await runBankSheets(connection, opts.runId, listed, bank),
            checks: await describeChecks(),
          },
          { maxRows: opts.maxRows },
        );
        await replaceAtomically(written.path, path.join(opts.reportsDir, LATEST_WORKBOOK));
        return written;
      },
    ),
  );
}
