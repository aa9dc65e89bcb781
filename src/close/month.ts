// The monthly close: per recipient × currency lines (monthly_summary), the month's disbursements, the
// findings open at close, the bank's word and the journal built from the lines, read from the store's
// marts (src/store/read) and written by close-workbook.ts.
import path from 'node:path';
import { addMonths } from 'date-fns';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  closeLines, bankSplit, type BankSplitRow, monthShape as readMonthShape, openErrorsOfMonth, openFindingsOfMonth,
  suspenseLines, countOpenFindingsOfMonth,
} from '../store/read/summaries.js';
import {
  bankCredits, bankRows, countCredits, hasBankData, reconciliationRows, withDisbursementRows,
} from '../store/read/rows.js';
import { listMonth, withListed } from '../store/read/listed.js';
import { writeCloseWorkbook } from '../report/close-workbook.js';
import { buildJournal } from '../report/journal.js';
import { withWorkbookViews } from '../report/run-report.js';
import { listLayout } from '../report/list-sheet.js';
import { EXCEL_MAX_ROWS } from '../report/table-sheet.js';
import type { CloseLine, JournalEntry, SuspenseLine } from '../report/types.js';
import type { CloseAcceptance } from '../store/closes.js';
import { formatMajor } from '../money.js';
import type { FourEyes } from '../checks/four-eyes.js';
import type { Actor } from '../store/trail.js';
import { acceptanceOf, closeControls, closeEntry, unaccountedAmounts, type AcceptanceRequest } from './controls.js';


function closeWorkbookPath(reportsDir: string, month: string, version: number): string {
  return path.join(reportsDir, version === 1 ? `close-${month}.xlsx` : `close-${month}-v${version}.xlsx`);
}

/** Why a close cannot be final yet: open error findings of the month, a variance. */
async function provisionalReasons(c: DuckDBConnection, month: string, lines: readonly CloseLine[]): Promise<string[]> {
  const errors = await openErrorsOfMonth(c, month);
  const varianceCurrencies = new Set(lines.filter((l) => l.variance !== 0n).map((l) => l.currency));
  const reasons: string[] = [];
  if (errors > 0) reasons.push(`${errors} open error finding${errors === 1 ? '' : 's'} (Open findings)`);
  if (varianceCurrencies.size > 0)
    reasons.push(`a variance in ${[...varianceCurrencies].sort().join(', ')} (Reconciliation suspense in the Journal)`);
  return reasons;
}

/**
 * The month's money that is unaccounted for, per currency and in the bank's words: not arrived,
 * short (or over), on another account, credited on an unbalanced statement (bank_month_split), the
 * month's bank credits that settled nothing by reason — credited twice, from the provider matching
 * nothing, from others (bank_month_movement) — and lines held in currency suspense. Whatever its findings'
 * state: an acknowledged finding does not bring money into the bank, nor returns a credit received twice.
 */
function unaccountedReasons(split: Map<string, BankSplitRow> | undefined, suspense: readonly SuspenseLine[]): string[] {
  const money = (v: bigint, ccy: string) => `${formatMajor(v < 0n ? -v : v, ccy)} ${ccy}`;
  const reasons: string[] = [];
  for (const [ccy, s] of [...(split ?? new Map<string, BankSplitRow>())].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (s.notArrived !== 0n) reasons.push(`${money(s.notArrived, ccy)} not arrived (Bank)`);
    if (s.shortBy > 0n) reasons.push(`credited short by ${money(s.shortBy, ccy)} (Bank)`);
    if (s.shortBy < 0n) reasons.push(`credited over by ${money(s.shortBy, ccy)} (Bank)`);
    if (s.otherAccount !== 0n) reasons.push(`${money(s.otherAccount, ccy)} on another account (Bank)`);
    if ((s.unproven ?? 0n) !== 0n) reasons.push(`${money(s.unproven, ccy)} credited on an unbalanced statement (Bank)`);
    const m = s.movement ?? null;
    if (m && m.duplicate !== 0n)
      reasons.push(`${money(m.duplicate, ccy)} credited twice, to return (Unmatched credits)`);
    if (m && m.unexpected !== 0n)
      reasons.push(`${money(m.unexpected, ccy)} from the provider matching no disbursement (Unmatched credits)`);
    if (m && m.otherCredits !== 0n)
      reasons.push(`${money(m.otherCredits, ccy)} credited by others than the provider (Unmatched credits)`);
  }
  if (suspense.length > 0)
    reasons.push(
      `${suspense.length} line${suspense.length === 1 ? '' : 's'} in another currency than ` +
        `${suspense.length === 1 ? 'its' : 'their'} disbursement's held in suspense (Currency suspense)`,
    );
  return reasons;
}

/**
 * The calendar month's days for the Month sheet: the days of the books' time zone (daily_disbursed counts a
 * delivery on the day it was in --books-tz, as the close counts it in the month), each shown as that date.
 */
async function monthShape(c: DuckDBConnection, month: string, booksTz: string) {
  const from = new Date(`${month}-01T00:00:00Z`);
  const to = addMonths(from, 1);
  const title = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(from);
  return readMonthShape(c, booksTz === 'UTC' ? title : `${title} (days in ${booksTz})`, from, to);
}

interface MonthCloseOptions {
  month: string;
  version: number;
  reportsDir: string;
  serviceUrl: string;
  now: Date;
  /** Unaccounted money accepted by name (--accept-unaccounted), or an acceptance being approved (--approve). */
  accept?: AcceptanceRequest | null;
  booksTz: string;
  /** The Journal as the ledger books it (ISO decimals, the user's accounts); throws to stop the close first. */
  book: (journal: JournalEntry[]) => JournalEntry[];
  /** Thresholds above which an acceptance waits for a second person (--four-eyes). */
  fourEyes?: FourEyes;
  /** Who closes; with `runId`, the close's audit-trail entry is chained and its hash printed on the Summary. */
  closer?: Actor;
  runId?: string;
  /** The rows a sheet may hold (Excel's limit; tests give a small one). */
  maxRows?: number;
}

export async function writeMonthClose(c: DuckDBConnection, opts: MonthCloseOptions) {
  const bank = await hasBankData(c);
  const workbook = closeWorkbookPath(opts.reportsDir, opts.month, opts.version);
  return withWorkbookViews(c, () => withListed(c, () => listMonth(c, opts.month, bank), async (listed) => {
    const lines = await closeLines(c, opts.month);
    const suspense = await suspenseLines(c, opts.month);
    const split = bank ? await bankSplit(c, opts.month) : undefined;
    const unaccounted = unaccountedReasons(split, suspense);
    const amounts = unaccountedAmounts(split, suspense);
    const accept = opts.accept ?? null;
    const { acceptance, waiting } = acceptanceOf(opts.month, accept, unaccounted, amounts, opts.fourEyes ?? []);
    const state = acceptance?.state ?? null;
    const provisional = [...await provisionalReasons(c, opts.month, lines),
      ...(state === 'accepted' || state === 'approved' ? [] : unaccounted), ...waiting];
    const trail = opts.runId && opts.closer ? await closeEntry(c, {
      month: opts.month, version: opts.version, closedAt: opts.now, runId: opts.runId, workbook, closer: opts.closer,
      acceptance: acceptance ? { ...acceptance, accepted: unaccounted.join('; ') } : null,
    }) : null;
    const journal = opts.book(buildJournal(lines, suspense, split));
    // the Disbursements sheet's rows are known before the Open findings sheet links to them
    const place = listLayout(opts.maxRows ?? EXCEL_MAX_ROWS, listed.listed);
    const credits = { creditedIn: opts.month, others: true };
    const written = await writeCloseWorkbook(
      workbook,
      {
        suspense,
        provisional,
        acceptance: acceptance
          ? {
              by: acceptance.by,
              note: acceptance.note,
              accepted: acceptance.accepted,
              state: acceptance.state,
              approvedBy: acceptance.approval?.by ?? null,
            }
          : null,
        controls: opts.closer ? closeControls(opts.closer, acceptance, trail?.entry ?? null) : undefined,
        month: opts.month,
        booksTz: opts.booksTz,
        version: opts.version,
        generatedAt: opts.now,
        serviceUrl: opts.serviceUrl,
        lines,
        disbursements: { rows: reconciliationRows(c, { listed: true }), count: listed.listed },
        openFindings: {
          rows: withDisbursementRows(c, openFindingsOfMonth(c, opts.month, opts.now), {
            firstRow: place.headerRow + 1,
            shown: place.shown,
          }),
          count: await countOpenFindingsOfMonth(c, opts.month),
        },
        journal,
        bank: bank
          ? {
              disbursements: { rows: bankRows(c, { listed: true }), count: listed.listed },
              credits: { rows: bankCredits(c, credits), count: await countCredits(c, credits) },
            }
          : undefined,
        shape: await monthShape(c, opts.month, opts.booksTz),
      },
      { maxRows: opts.maxRows },
    );
    const accepted: CloseAcceptance | null = acceptance
      ? { by: acceptance.by, note: acceptance.note, accepted: acceptance.accepted } : null;
    return { ...written, acceptance: accepted, acceptanceState: state, trail };
  }));
}
