// recon prune: the retention (issue 26). Run workbooks and results, downloaded files (files/) and log lines
// older than --keep-days are removed, except what the store still needs: a workbook of the newest run or
// of a run that reported or showed a finding still unresolved; a downloaded file of a disbursement with an
// unresolved finding, in a month not closed, or still incomplete. The store's rows are kept whole (they are
// the record: history, closes, findings). Under the run lock, as a recorded run; --dry-run removes nothing
// and says what would go.
import { rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import { EXIT, type ExitCode } from '../src/errors.js';
import type { Config } from '../src/config.js';
import { listBlobs } from '../src/store/blobs.js';
import { neededBlobs, neededRuns, recordPrunedBlobs, referencedBlobs } from '../src/store/retention.js';
import { runReports } from '../src/report/retention.js';
import { trimLog } from '../src/ops/log-retention.js';
import { withJob, type Notices } from './job.js';
import { jobSettings, pruneSettings } from './settings.js';

export interface PruneCount {
  removed: number;
  kept: number;
  removedBytes: number;
}

export interface PruneOutcome {
  code: ExitCode;
  dryRun: boolean;
  keepDays: number;
  cutoff: Date | null;
  /** Run workbooks and results files. */
  reports: PruneCount & { removedPaths: string[] };
  /** Downloaded files under files/. */
  blobs: PruneCount & { keptNeeded: number; removedPaths: string[] };
  /** Log lines. */
  logs: PruneCount;
}

const DAY_MS = 86_400_000;

export async function runPrune(config: Config, logger: Logger, opts: Notices & { dryRun?: boolean; now?: () => Date } = {}): Promise<PruneOutcome> {
  const settings = pruneSettings(config);
  const dryRun = opts.dryRun === true;
  const empty = () => ({ removed: 0, kept: 0, removedBytes: 0 });
  const out: PruneOutcome = { code: EXIT.FAILED, dryRun, keepDays: settings.keepDays, cutoff: null,
    reports: { ...empty(), removedPaths: [] }, blobs: { ...empty(), keptNeeded: 0, removedPaths: [] }, logs: empty() };
  out.code = await withJob('prune', jobSettings(config), logger, async (ctx) => {
    const cutoff = new Date((opts.now?.() ?? new Date()).getTime() - settings.keepDays * DAY_MS);
    out.cutoff = cutoff;
    const c = ctx.store.connection;
    const remove = async (file: string) => {
      if (!dryRun) await rm(file, { force: true });
    };

    // workbooks and results: the newest run's, and those an unresolved finding needs, are kept
    const runs = await neededRuns(c);
    const reports = await runReports(settings.reportsDir);
    const newest = reports.reduce((a, r) => Math.max(a, r.at.getTime()), 0);
    for (const r of reports) {
      if (r.at >= cutoff || r.at.getTime() === newest || runs.has(r.runId)) {
        out.reports.kept += 1;
        continue;
      }
      await remove(r.path);
      out.reports.removed += 1;
      out.reports.removedPaths.push(r.path);
    }

    // downloaded files: a blob goes when no needed disbursement file names it (and a stray one when it is old)
    const needed = await neededBlobs(c, cutoff);
    const referenced = await referencedBlobs(c);
    const pruned: string[] = [];
    for (const blob of await listBlobs(settings.filesDir)) {
      const keep = needed.has(blob.name) || (!referenced.has(blob.name) && blob.modifiedMs >= cutoff.getTime());
      if (keep) {
        out.blobs.kept += 1;
        if (needed.has(blob.name)) out.blobs.keptNeeded += 1;
        continue;
      }
      await remove(blob.path);
      if (referenced.has(blob.name)) pruned.push(blob.name);
      out.blobs.removed += 1;
      out.blobs.removedBytes += blob.bytes;
      out.blobs.removedPaths.push(blob.path);
    }
    if (!dryRun) await recordPrunedBlobs(c, pruned, ctx.runId);

    for (const file of settings.logFiles) {
      const trimmed = await trimLog(file, cutoff.getTime(), dryRun);
      if (!trimmed) continue;
      out.logs.removed += trimmed.removedLines;
      out.logs.kept += trimmed.keptLines;
      out.logs.removedBytes += trimmed.removedBytes;
    }
    logger.info({ dryRun, cutoff: cutoff.toISOString(), reports: out.reports.removed, blobs: out.blobs.removed, logLines: out.logs.removed }, 'prune done');
    return EXIT.OK;
  }, { notice: opts.notice });
  return out;
}
