// recon close --month YYYY-MM: the close stage (src/close) as a recorded run, its outlets (journal files,
// mail, alert) around it, and the snapshot published so accountants see the close too.
import { rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import { EXIT, type ExitCode } from '../src/errors.js';
import type { Config } from './config.js';
import { closeMonth, requireMonth, type CloseSettings } from '../src/close/index.js';
import { publishSnapshot } from '../src/store/publish.js';
import { restoreMonth } from '../src/store/archive.js';
import { withJob, type Notices } from './job.js';
import { actorOf, closeOutletSettings, closeSettings, jobSettings, layoutOf } from './settings.js';
import type { JournalEntry } from '../src/report/types.js';
import type { CloseOutletSettings } from '../src/outlets/settings.js';
import { withCloseOutlets } from '../src/outlets/close.js';
import type { OutletsReport } from '../src/outlets/deliver.js';
import { removeEvidenceLeftovers, writeEvidencePack } from '../src/outlets/evidence.js';

export interface CloseOutcome {
  code: ExitCode;
  month: string;
  version: number | null;
  workbook: string | null;
  disbursements: number;
  /** Why the close is provisional (exit 1); empty when final (exit 0). */
  provisional: string[];
  /** The unaccounted money accepted by name (--accept-unaccounted), in the workbook's words. */
  accepted?: string[];
  acceptedBy?: string | null;
  /** accepted, pending (waiting for a second person: four eyes) or approved. */
  acceptanceState?: 'accepted' | 'pending' | 'approved' | null;
  /** The close's entry in the audit trail (its Summary prints the hash). */
  trail?: { seq: number; hash: string } | null;
  /** The evidence pack written beside the workbook. */
  evidence?: string | null;
  runId: string | null;
  /** The Journal sheet's lines, as booked (ISO decimals, the user's accounts). */
  journal: readonly JournalEntry[] | null;
  /** The journal files written beside the workbook, and why any asked for was not. */
  journalFiles: string[];
  journalNotes: string[];
  /** Why the close failed, as said on stderr. */
  error: string | null;
  outlets?: OutletsReport;
}

type CloseOptions = Notices & { month: string; reissue: boolean;
  /** Accept the month's unaccounted money (not arrived, short, elsewhere, suspense) by name with a note. */
  accept?: { by: string; note: string } | null;
  /** Approve the acceptance the month's latest close waits on (four eyes), by --by: the next version. */
  approve?: boolean;
  now?: Date; handleSignals?: boolean; outlets?: Partial<CloseOutletSettings> };

export async function runMonthlyClose(config: Config, logger: Logger, opts: CloseOptions): Promise<CloseOutcome> {
  requireMonth(opts.month);
  // a misuse (a ledger format without a chart of accounts, a chart that cannot be read) stops here, before any outlet
  const settings = closeSettings(config);
  return withCloseOutlets(closeOutletSettings(config, opts.outlets), logger,
    () => monthlyClose(config, settings, logger, opts));
}

async function monthlyClose(
  config: Config, settings: CloseSettings, logger: Logger, opts: CloseOptions,
): Promise<CloseOutcome> {
  const out: CloseOutcome = { code: EXIT.FAILED, month: opts.month, version: null, workbook: null, disbursements: 0, provisional: [],
    runId: null, journal: null, journalFiles: [], journalNotes: [], error: null };
  const { published, archive: archiveDir } = layoutOf(config);
  out.code = await withJob('close', jobSettings(config), logger, async (ctx) => {
    out.runId = ctx.runId;
    // a month closed again is read whole from the store: an archived one comes back first (a later night
    // archives it again)
    if (await restoreMonth(ctx.store.connection, archiveDir, opts.month)) {
      logger.info({ month: opts.month }, 'archived month brought back for its close');
    }
    const now = opts.now ?? new Date();
    await removeEvidenceLeftovers(settings.reportsDir);
    // the evidence pack is written before the close is recorded, and its entry recorded with it: both or neither
    let closed;
    try {
      closed = await closeMonth(ctx.store.connection, settings, {
        month: opts.month, reissue: opts.reissue, accept: opts.accept ?? null, now, runId: ctx.runId,
        approve: opts.approve === true, closer: actorOf(config),
      }, async (w) => {
        const pack = await writeEvidencePack(ctx.store.connection, {
          month: opts.month, version: w.version, workbook: w.workbook, journal: w.journal,
          journalFiles: w.journalFiles, reportsDir: settings.reportsDir,
          close: w.entry, at: now,
        });
        out.evidence = pack.path;
        return [pack.entry];
      });
    } catch (err) {
      // a pack whose close was not recorded is evidence of nothing: it goes with the failure
      if (out.evidence) await rm(out.evidence, { force: true });
      out.evidence = null;
      throw err;
    }
    Object.assign(out, closed);
    logger.info({ month: opts.month, version: closed.version, workbook: closed.workbook, disbursements: closed.disbursements,
      provisional: closed.provisional, journalFiles: closed.journalFiles }, 'month closed');
    for (const n of closed.journalNotes) logger.warn({ month: opts.month }, `journal: ${n}`);
    // a provisional close is written and recorded, but it needs a person: exit 1, like a run with findings
    return closed.provisional.length > 0 ? EXIT.EXCEPTIONS : EXIT.OK;
  }, {
    handleSignals: opts.handleSignals,
    notice: opts.notice,
    onStopped: (message) => {
      out.error = message;
    },
    afterSuccess: async (ctx) => {
      await publishSnapshot({ sourceConnection: ctx.store.connection, publishedPath: published, runId: ctx.runId,
        archiveDir });
    },
  });
  return out;
}
