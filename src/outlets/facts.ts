// What the outlets say about a night, read once from the store inside the run (the lock held, the
// workbook just written), so the mail, the alert and the metrics tell the same story as the workbook.
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  describeChecks, latestFindings, type CheckRunResult, type FindingStatus, type LatestFinding, type Severity,
} from '../checks/index.js';
import type { RunCounters } from '../store/runs.js';
import { withBankMatches } from '../report/run-report.js';
import { hasBankData } from '../store/read/rows.js';
import { moneyAtStake, type MoneyAtStake } from './money-at-stake.js';
import { sqlText } from '../store/sql.js';
import { causeAgeing, type CauseAgeing } from '../store/read/ageing.js';

/** Findings of one check, one severity, by lifecycle status (resolved: closed by this run). */
export interface CheckCount {
  checkId: string;
  severity: Severity;
  status: FindingStatus;
  findings: number;
}

export interface BankCounts {
  settled: number;
  awaiting: number;
  unsettled: number;
  /**
   * Disbursements in currencies no statement was ever imported for, and those currencies (bank_status 'no statements').
   */
  noStatements?: { disbursements: number; currencies: string[] };
}

export interface NightFacts {
  runId: string;
  checks: CheckRunResult;
  counters: RunCounters;
  counts: CheckCount[];
  moneyAtStake: MoneyAtStake[];
  /**
   * The first findings of the workbook's Exceptions sheet that need a person (new, then still open; errors and money
   * first).
   */
  top: LatestFinding[];
  /** Null while no bank statement was ever imported. */
  bank: BankCounts | null;
  workbook: string;
  /** Each check's next step, from its file's header (what the mail says to do about a top finding). */
  nextSteps: Record<string, string>;
  /** How long the causes that need a person have been open, per currency (the workbook's Summary's). */
  ageing: CauseAgeing[];
}

const TOP_FINDINGS = 5;

export async function readNightFacts(
  connection: DuckDBConnection,
  run: { runId: string; checks: CheckRunResult; counters: RunCounters; workbook: string },
): Promise<NightFacts> {
  return {
    ...run,
    counts: await checkCounts(connection, run.runId),
    moneyAtStake: await moneyAtStake(connection, run.runId),
    top: await topFindings(connection, run.runId),
    bank: await bankCounts(connection),
    nextSteps: Object.fromEntries((await describeChecks()).map((c) => [c.id, c.nextStep])),
    ageing: await causeAgeing(connection, run.runId, run.checks.checkedAt),
  };
}

async function checkCounts(connection: DuckDBConnection, runId: string): Promise<CheckCount[]> {
  const rows = (
    await connection.runAndReadAll(sqlText('outlets/findings_by_check_and_status'), [runId])
  ).getRowObjectsJS();
  return rows.map((r) => ({
    checkId: String(r.check_id),
    severity: r.severity as Severity,
    status: r.status as FindingStatus,
    findings: Number(r.findings),
  }));
}

async function topFindings(connection: DuckDBConnection, runId: string): Promise<LatestFinding[]> {
  // the workbook's own order puts new, then open, first: its first page holds the top ones
  for await (const page of latestFindings(connection, runId, { pageSize: TOP_FINDINGS })) {
    return page.filter((f) => f.status === 'new' || f.status === 'open');
  }
  return [];
}

async function bankCounts(connection: DuckDBConnection): Promise<BankCounts | null> {
  if (!(await hasBankData(connection))) return null;
  const rows = await withBankMatches(connection, async () =>
    (await connection.runAndReadAll(sqlText('outlets/bank_status_counts'))).getRowObjectsJS(),
  );
  const n = (status: string) => Number(rows.find((r) => r.bank_status === status)?.disbursements ?? 0);
  const none = rows.filter((r) => r.bank_status === 'no statements');
  const counts: BankCounts = { settled: n('settled'), awaiting: n('awaiting statement'), unsettled: n('unsettled') };
  if (none.length === 0) return counts;
  return {
    ...counts,
    noStatements: {
      disbursements: none.reduce((k, r) => k + Number(r.disbursements), 0),
      currencies: none.map((r) => String(r.currency)).sort(),
    },
  };
}

/** The disbursements of currencies without any statement, in bank_status's words ('no statements'), or nothing. */
export const noStatementsText = (bank: Pick<BankCounts, 'noStatements'>): string =>
  bank.noStatements
    ? `, ${bank.noStatements.disbursements} with no statements (${bank.noStatements.currencies.join(', ')})`
    : '';

/** Findings of the run (or resolved by it) with this status, summed over checks and severities as asked. */
export function countOf(
  counts: readonly CheckCount[],
  where: { status?: FindingStatus; severity?: Severity; checkId?: string },
): number {
  return counts
    .filter(
      (c) =>
        (where.status === undefined || c.status === where.status) &&
        (where.severity === undefined || c.severity === where.severity) &&
        (where.checkId === undefined || c.checkId === where.checkId),
    )
    .reduce((n, c) => n + c.findings, 0);
}
