// One account of what happened, built once per run or close from the facts, with every piece of service
// text already cleaned (secrets out, one line, cut): the mail, the alert document, the ping's body and
// the metrics are all renderings of it, so they never disagree.
import path from 'node:path';
import { formatMajor } from '../money.js';
import type { JournalEntry } from '../report/types.js';
import { journalBalances } from '../report/journal.js';
import { cleanText, urlOrigin } from './escape.js';
import { countOf, type BankCounts, type NightFacts } from './facts.js';

export type Outcome = 'reconciled' | 'findings' | 'failed' | 'final' | 'provisional';

export interface Amount {
  currency: string;
  /** Exact, in major units with the currency's decimals ("1234.50"). */
  amount: string;
}

interface TopFinding {
  checkId: string;
  severity: string;
  status: string;
  disbursementId: string | null;
  subject: string | null;
  currency: string | null;
  /**
   * The check's difference (expected against actual), exact; not money at stake (a credit on another account has 0).
   */
  difference: string | null;
  /**
   * The money its cause puts at stake, as the workbook's At stake column shows it (null on a repeat or without money).
   */
  atStake: string | null;
  detail: string;
  action: string;
}

export interface AgeingSummary {
  /** null: causes without money (counts). */
  currency: string | null;
  buckets: Array<{ bucket: string; causes: number; amount: string | null }>;
  oldest: number;
}

interface FindingsSummary {
  needPerson: number;
  new: number;
  open: number;
  acknowledged: number;
  resolved: number;
  bySeverity: Record<'error' | 'warning', { new: number; open: number }>;
}

interface CloseSummary {
  month: string;
  version: number | null;
  status: 'final' | 'provisional' | null;
  reasons: string[];
  disbursements: number;
  /** Debit and credit totals per currency of the Journal (equal: it balances). */
  journal: Array<{ currency: string; debit: string; credit: string }>;
  journalFiles: string[];
  /** Why a journal file asked for was not written (provisional, a currency the ledger cannot hold, …). */
  journalNotes: string[];
}

export interface OutcomeSummary {
  kind: 'run' | 'close';
  outcome: Outcome;
  exitCode: number;
  runId: string | null;
  headline: string;
  startedAt: Date;
  finishedAt: Date;
  service: string | null;
  read: { listed: number; read: number; unchanged: number; restated: number; quarantined: number } | null;
  findings: FindingsSummary | null;
  moneyAtStake: Array<Amount & { findings: number }>;
  /** Open causes by age in business days, per currency, the money of each bucket exact in major units. */
  ageing: AgeingSummary[];
  top: TopFinding[];
  bank: BankCounts | null;
  workbook: string | null;
  results: string | null;
  /** Why the run failed, and what to check. */
  error: string | null;
  whatToCheck: string[];
  close: CloseSummary | null;
}

/** How any run or close ended, as every summary needs it. */
interface Ended {
  code: number;
  runId?: string | null;
  startedAt: Date;
  finishedAt: Date;
  serviceUrl: string | null;
  /** What the command said on stderr when it did not complete. */
  error?: string | null;
  logFile: string | null;
}

interface RunEnd extends Ended {
  facts: NightFacts | null;
  results: string | null;
}

/** A failed run's reason (cleaned) and what to check; nulls when it completed (exit 0 or 1). */
function failure(
  end: Ended,
  what: string,
  secrets: readonly (string | undefined)[],
): { error: string | null; whatToCheck: string[] } {
  if (end.code === 0 || end.code === 1) return { error: null, whatToCheck: [] };
  const error = cleanText(end.error ?? `the ${what} failed; see the log`, secrets, 1000);
  return { error, whatToCheck: whatToCheck(error, end.logFile) };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function runSummary(end: RunEnd, secrets: readonly (string | undefined)[]): OutcomeSummary {
  const f = end.facts;
  const { error, whatToCheck: hints } = failure(end, 'run', secrets);
  const findings = f ? findingsSummary(f) : null;
  const outcome: Outcome = error !== null ? 'failed' : end.code === 1 ? 'findings' : 'reconciled';
  return {
    kind: 'run',
    outcome,
    exitCode: end.code,
    runId: end.runId ?? null,
    headline:
      error !== null
        ? `recon run FAILED: ${cleanText(error, [], 120)}`
        : outcome === 'findings'
          ? `recon run: ${plural(findings?.needPerson ?? 0, 'finding')} ` +
              `need${findings?.needPerson === 1 ? 's' : ''} a person (${findings?.new ?? 0} new)`
          : 'recon run: everything reconciles',
    startedAt: end.startedAt,
    finishedAt: end.finishedAt,
    service: end.serviceUrl ? urlOrigin(end.serviceUrl) : null,
    read:
      f?.counters.disbursements_listed === undefined
        ? null
        : {
            listed: f.counters.disbursements_listed,
            read: f.counters.disbursements_loaded ?? 0,
            unchanged: f.counters.disbursements_skipped ?? 0,
            restated: f.counters.restated ?? 0,
            quarantined: f.counters.quarantined ?? 0,
          },
    findings,
    moneyAtStake: (f?.moneyAtStake ?? []).map((m) => ({
      currency: m.currency,
      amount: formatMajor(m.subunits, m.currency),
      findings: m.findings,
    })),
    ageing: (f?.ageing ?? []).map((a) => ({
      currency: a.currency,
      oldest: a.oldest,
      buckets: a.buckets.map((b) => ({
        bucket: b.bucket,
        causes: b.causes,
        amount: a.currency && b.atStake !== null ? formatMajor(b.atStake, a.currency) : null,
      })),
    })),
    top: (f?.top ?? []).map((t) => ({
      checkId: t.checkId,
      severity: t.severity,
      status: t.status,
      disbursementId: t.disbursementId === null ? null : cleanText(t.disbursementId, secrets, 80),
      subject: t.subject === null ? null : cleanText(t.subject, secrets, 80),
      currency: t.currency === null ? null : cleanText(t.currency, secrets, 8),
      difference: t.difference !== null && t.currency ? formatMajor(t.difference, t.currency) : null,
      atStake: t.stake !== null && t.stake !== undefined && t.currency ? formatMajor(t.stake, t.currency) : null,
      detail: cleanText(t.detail, secrets, 300),
      action:
        f?.nextSteps[t.checkId] ??
        `See what ${t.checkId} means on the workbook's Checks ` +
          `sheet${t.checkId.startsWith('bank_') ? ', and the disbursement on its Bank sheet' : ''}.`,
    })),
    bank: f?.bank ?? null,
    workbook: f?.workbook ?? null,
    results: end.results,
    error,
    whatToCheck: hints,
    close: null,
  };
}

function findingsSummary(f: NightFacts): FindingsSummary {
  const c = f.counts;
  const sev = (severity: 'error' | 'warning') => ({
    new: countOf(c, { severity, status: 'new' }),
    open: countOf(c, { severity, status: 'open' }),
  });
  return {
    needPerson: f.checks.actionable,
    new: f.checks.byStatus.new,
    open: f.checks.byStatus.open,
    acknowledged: f.checks.byStatus.acknowledged,
    resolved: f.checks.byStatus.resolved,
    bySeverity: { error: sev('error'), warning: sev('warning') },
  };
}

/** Where to look after a failure, from what the failure says. */
export function whatToCheck(reason: string, logFile: string | null): string[] {
  const hints: string[] = [];
  if (/API key|service URL|--api-url|PAYMENTS_API/i.test(reason))
    hints.push('the service settings: PAYMENTS_API_URL and PAYMENTS_API_KEY (or --api-url / --api-key)');
  if (/429|rate|Retry-After|blocked/i.test(reason))
    hints.push(
      "whether other software on this IP uses the service's 500 requests/min (recon waits out a 429 block); lower " +
        "--rate-per-minute",
    );
  if (/reach|refused|timed? ?out|ECONN|ENOTFOUND|network|5\d\d\b/i.test(reason))
    hints.push("that the service answers from this machine (network, proxy, firewall, the provider's status page)");
  if (/space|disk|write|permission|read-only|ENOSPC|EACCES/i.test(reason))
    hints.push('free space and write permission where the store, the snapshot and the reports live');
  if (/memory/i.test(reason)) hints.push('--memory-mb / RECON_MEMORY_MB, and what else runs on this machine at night');
  if (/signal|interrupted/i.test(reason))
    hints.push('who or what stopped the run (a deploy, a reboot, a time limit of the scheduler)');
  hints.push(
    `the log${logFile ? ` (${path.resolve(logFile)})` : ''}; then run \`recon run\` by hand: it continues where ` +
      `this run stopped`,
  );
  return hints;
}

/** What a close tells its outlets (pipelines/monthly-close.ts CloseOutcome has these). */
export interface CloseEnd {
  code: number;
  runId?: string | null;
  month: string;
  version: number | null;
  workbook: string | null;
  disbursements: number;
  provisional: string[];
  /** The Journal sheet's lines, balanced per currency. */
  journal?: readonly JournalEntry[] | null;
  /** The journal files the close wrote, and why any asked for was not. */
  journalFiles?: string[];
  journalNotes?: string[];
  error?: string | null;
}

export function closeSummary(end: CloseEnd & Ended, secrets: readonly (string | undefined)[]): OutcomeSummary {
  const { error, whatToCheck: hints } = failure(end, 'close', secrets);
  const status = error !== null ? null : end.provisional.length > 0 ? 'provisional' : 'final';
  return {
    kind: 'close',
    outcome: status ?? 'failed',
    exitCode: end.code,
    runId: end.runId ?? null,
    headline:
      error !== null
        ? `recon close ${end.month} FAILED: ${cleanText(error, [], 120)}`
        : `recon close ${end.month} v${end.version}: ` +
            `${status === 'final' ? 'final' : `PROVISIONAL (${end.provisional.length} ` +
                                                `reason${end.provisional.length === 1 ? '' : 's'})`}`,
    startedAt: end.startedAt,
    finishedAt: end.finishedAt,
    service: end.serviceUrl ? urlOrigin(end.serviceUrl) : null,
    read: null,
    findings: null,
    moneyAtStake: [],
    ageing: [],
    top: [],
    bank: null,
    workbook: end.workbook,
    results: null,
    error,
    whatToCheck: hints,
    close: {
      month: end.month,
      version: end.version,
      status,
      reasons: end.provisional.map((r) => cleanText(r, secrets, 300)),
      disbursements: end.disbursements,
      journal: journalBalances(end.journal ?? []).map((b) => ({
        currency: b.currency,
        debit: formatMajor(b.debit, b.currency),
        credit: formatMajor(b.credit, b.currency),
      })),
      journalFiles: end.journalFiles ?? [],
      journalNotes: (end.journalNotes ?? []).map((n) => cleanText(n, secrets, 300)),
    },
  };
}
