// recon close --month YYYY-MM: the controllers' close workbook (lines, disbursements, open findings,
// balanced journal) and the month marked closed with a snapshot of what it contained. Closing a closed
// month again needs --reissue and produces the next version.
import type { Logger } from 'pino';
import { EXIT, UsageError, type ExitCode } from '../src/errors.js';
import type { Config } from '../src/config.js';
import { writeMonthClose } from '../src/report/close-report.js';
import { MONTH } from '../src/month.js';
import { closedVersion, disbursementsInMonth, recordClose, setBooksTz } from '../src/store/closes.js';
import { serviceUrlOf } from '../src/store/runs.js';
import { publishSnapshot } from '../src/store/publish.js';
import { withJob, type Notices } from './job.js';
import { booksTz, jobSettings, publishSettings, reportSettings } from './settings.js';
import type { JournalEntry } from '../src/report/types.js';
import { closeOutletSettings, type CloseOutletSettings } from '../src/outlets/settings.js';
import { withCloseOutlets } from '../src/outlets/close.js';
import type { OutletsReport } from '../src/outlets/deliver.js';

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
  runId: string | null;
  /** The Journal sheet's lines (for the journal CSVs, #29). */
  journal: readonly JournalEntry[] | null;
  /** Why the close failed, as said on stderr. */
  error: string | null;
  outlets?: OutletsReport;
}

type CloseOptions = Notices & { month: string; reissue: boolean;
  /** Accept the month's unaccounted money (not arrived, short, elsewhere, suspense) by name with a note (#27). */
  accept?: { by: string; note: string } | null; now?: Date; handleSignals?: boolean; outlets?: Partial<CloseOutletSettings> };

export async function runMonthlyClose(config: Config, logger: Logger, opts: CloseOptions): Promise<CloseOutcome> {
  return withCloseOutlets(closeOutletSettings(config, opts.outlets), logger, () => monthlyClose(config, logger, opts));
}

async function monthlyClose(config: Config, logger: Logger, opts: CloseOptions): Promise<CloseOutcome> {
  if (!MONTH.test(opts.month)) throw new UsageError(`--month must be YYYY-MM (e.g. 2026-10), got '${opts.month}'`);
  const out: CloseOutcome = { code: EXIT.FAILED, month: opts.month, version: null, workbook: null, disbursements: 0, provisional: [], runId: null, journal: null, error: null };
  const report = reportSettings(config);
  const { published } = publishSettings(config);
  out.code = await withJob('close', jobSettings(config), logger, async (ctx) => {
    out.runId = ctx.runId;
    const c = ctx.store.connection;
    const now = opts.now ?? new Date();
    const prior = await closedVersion(c, opts.month);
    if (prior > 0 && !opts.reissue) {
      throw new UsageError(`month ${opts.month} is already closed (version ${prior}); pass --reissue to issue version ${prior + 1}`);
    }
    const tz = booksTz(config);
    await setBooksTz(c, tz);
    const count = await disbursementsInMonth(c, opts.month);
    if (count === 0) throw new UsageError(`no disbursements delivered in ${opts.month}; run recon sync first or pick another month`);
    const version = prior + 1;
    const written = await writeMonthClose(c, { month: opts.month, version, reportsDir: report.reportsDir, serviceUrl: await serviceUrlOf(c, report.serviceUrl), now, accept: opts.accept ?? null, booksTz: tz });
    await recordClose(c, { month: opts.month, version, at: now, runId: ctx.runId, workbook: written.path, acceptance: written.acceptance });
    Object.assign(out, { version, workbook: written.path, disbursements: count, provisional: written.provisional, journal: written.journal, accepted: written.acceptance?.accepted ?? [] });
    logger.info({ month: opts.month, version, workbook: written.path, disbursements: count, provisional: written.provisional }, 'month closed');
    // a provisional close is written and recorded, but it needs a person: exit 1, like a run with findings
    return written.provisional.length > 0 ? EXIT.EXCEPTIONS : EXIT.OK;
  }, {
    handleSignals: opts.handleSignals,
    notice: opts.notice,
    onStopped: (message) => {
      out.error = message;
    },
    // accountants see the close in the published snapshot too
    afterSuccess: async (ctx) => {
      await publishSnapshot({ sourceConnection: ctx.store.connection, publishedPath: published, runId: ctx.runId });
    },
  });
  return out;
}
