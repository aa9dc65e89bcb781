// The month close: the controllers' close workbook (lines, disbursements, open findings, balanced journal)
// and the month recorded as closed with what it contained. The rules: a month is closed once; closing it
// again needs a reissue, which is the next version; a month without a disbursement is not closed.
import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../errors.js';
import { MONTH } from '../month.js';
import { closedVersion, disbursementsInMonth, recordClose, setBooksTz, type BookedLine } from '../store/closes.js';
import { serviceUrlOf } from '../store/runs.js';
import type { JournalEntry } from '../report/types.js';
import type { CloseSettings } from './settings.js';
import { writeMonthClose } from './month.js';
import { approvalOf, type AcceptanceRequest } from './controls.js';
import type { Actor, TrailEntry } from '../store/trail.js';
import { mapJournal, type ChartNeeds } from './chart.js';
import { toLedgerPrecision } from './precision.js';
import { writeJournalFiles } from './journal-files.js';
import type { JournalFormat } from './journal-formats.js';

export type { CloseSettings } from './settings.js';

interface CloseRequest {
  month: string;
  reissue: boolean;
  /** Accept the month's unaccounted money (not arrived, short, elsewhere, suspense) by name with a note. */
  accept: { by: string; note: string } | null;
  /** Approve the acceptance the month's latest close waits on (four eyes): a new version, by `closer`. */
  approve?: boolean;
  now: Date;
  runId: string;
  /** Who closes: the person named (or null), the operating-system user and host. */
  closer?: Actor;
}

interface ClosedMonth {
  version: number;
  workbook: string;
  disbursements: number;
  /** Why the close is provisional; empty when final. */
  provisional: string[];
  /** The unaccounted money accepted by name, in the workbook's words. */
  accepted: string[];
  /** Who accepted it (for an approval: the first person). */
  acceptedBy: string | null;
  /** accepted, pending (a second person's approval: four eyes) or approved; null without an acceptance. */
  acceptanceState: 'accepted' | 'pending' | 'approved' | null;
  /** The close's entry in the audit trail, printed on its Summary. */
  trail: { seq: number; hash: string } | null;
  /** The Journal as booked: ISO 4217 decimals, a rounding line where needed, the user's accounts given a chart. */
  journal: readonly JournalEntry[];
  /** The journal files written beside the workbook (reversals before entries). */
  journalFiles: string[];
  /** Why a journal file asked for was not written, one sentence each. */
  journalNotes: string[];
}

/** A month as the close takes it (YYYY-MM), checked before any run starts. */
export function requireMonth(month: string): void {
  if (!MONTH.test(month)) throw new UsageError(`--month must be YYYY-MM (e.g. 2026-10), got '${month}'`);
}

/**
 * What is done between the close's workbook and its record: given the workbook and the close's trail entry
 * (chained, not stored), it returns entries chained after it to record with the close (the evidence pack's).
 */
type BeforeRecord = (
  w: {
    version: number; workbook: string; journal: readonly BookedLine[];
    /** The journal files the close wrote beside the workbook (none: not asked, or provisional). */
    journalFiles: readonly string[];
    entry: TrailEntry;
  },
) => Promise<TrailEntry[]>;

export async function closeMonth(
  c: DuckDBConnection, settings: CloseSettings, r: CloseRequest, beforeRecord?: BeforeRecord,
): Promise<ClosedMonth> {
  requireMonth(r.month);
  const prior = await closedVersion(c, r.month);
  const closer = r.closer ?? { by: r.accept?.by ?? null, osUser: null, host: null };
  // an approval is the next version of the close it approves: the same month, now final if nothing else is open
  const accept: AcceptanceRequest | null = r.approve ? await approvalOf(c, r.month, closer, r.now)
    : r.accept ? { ...r.accept, osUser: closer.osUser, host: closer.host } : null;
  if (prior > 0 && !r.reissue && !r.approve) {
    throw new UsageError(
      `month ${r.month} is already closed (version ${prior}); pass --reissue to issue version ${prior + 1}`,
    );
  }
  await setBooksTz(c, settings.booksTz);
  const count = await disbursementsInMonth(c, r.month);
  if (count === 0)
    throw new UsageError(`no disbursements delivered in ${r.month}; run recon sync first or pick another month`);
  const version = prior + 1;
  const written = await writeMonthClose(c, {
    month: r.month, version, reportsDir: settings.reportsDir, serviceUrl: await serviceUrlOf(c, settings.serviceUrl),
    now: r.now, accept, booksTz: settings.booksTz, fourEyes: settings.fourEyes, closer, runId: r.runId,
    book: (journal) => bookable(journal, settings),
  });
  const booked = written.journal.map((e) => ({
    currency: e.currency,
    role: e.role,
    account: e.account,
    code: e.ledger?.code ?? '',
    name: e.ledger?.name ?? '',
    description: e.description,
    debit: e.debit,
    credit: e.credit,
  }));
  const files = await writeJournalFiles(c, { month: r.month, version, workbook: written.path,
    provisional: written.provisional.length > 0, lines: booked }, settings.journal);
  const entry = written.trail!.entry;
  const after = beforeRecord ? await beforeRecord({ version, workbook: written.path, journal: booked,
    journalFiles: files.files.map((f) => f.file), entry }) : [];
  await recordClose(c, { row: written.trail!.row, entries: [entry, ...after], journal: booked, files: files.files });
  return {
    version, workbook: written.path, disbursements: count, provisional: written.provisional, journal: written.journal,
    accepted: written.acceptance?.accepted ?? [], acceptedBy: written.acceptance?.by ?? null,
    acceptanceState: written.acceptanceState,
    trail: { seq: written.trail!.entry.seq, hash: written.trail!.entry.hash },
    journalFiles: files.files.map((f) => f.file), journalNotes: files.notes,
  };
}

/** What each asked format needs of an account: Xero imports codes; QuickBooks matches names. */
function chartNeeds(formats: readonly JournalFormat[]): ChartNeeds {
  return {
    code: formats.includes('xero') ? 'Xero\'s manual journal import takes account codes' : null,
    name: formats.includes('quickbooks') ? 'QuickBooks\' journal import matches accounts by name' : null,
  };
}

/**
 * The Journal as a ledger books it: whole ISO 4217 minor units, then the user's accounts (stopping the close on a gap).
 */
function bookable(journal: readonly JournalEntry[], settings: CloseSettings): JournalEntry[] {
  const ledger = toLedgerPrecision(journal);
  return settings.chart ? mapJournal(ledger, settings.chart, chartNeeds(settings.journal.formats)) : ledger;
}
