// The retention (recon prune): run workbooks and results, downloaded files and log lines older than the
// kept days are removed, except what the store still needs: a workbook of the newest run or of a run that
// reported or showed a finding still unresolved; a downloaded file of a disbursement with an unresolved
// finding, in a month not closed, or still incomplete. Only what recon itself wrote is ever a candidate:
// a workbook or results file of a run the store records, a downloaded file the store names by its
// sha256. A symbolic link is never followed, and a file recon does not know is never touched. The store's
// rows are kept whole (they are the record: history, closes, findings).
import { rm } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { listBlobs } from '../store/blobs.js';
import { knownRuns, neededBlobs, neededRuns, recordPrunedBlobs, referencedBlobs } from '../store/retention.js';
import { runReports } from './run-files.js';
import { trimLog } from './log-lines.js';
import { MAX_KEEP_DAYS, type RetentionSettings } from './settings.js';

export { MAX_KEEP_DAYS, type RetentionSettings } from './settings.js';

export interface PruneCount {
  removed: number;
  kept: number;
  removedBytes: number;
}

export interface PruneResult {
  dryRun: boolean;
  keepDays: number;
  cutoff: Date;
  /** Run workbooks and results files. */
  reports: PruneCount & { removedPaths: string[] };
  /** Downloaded files under files/. */
  blobs: PruneCount & { keptNeeded: number; removedPaths: string[] };
  /** Log lines. */
  logs: PruneCount;
}

const DAY_MS = 86_400_000;

/**
 * The instant before which things may go. Always a valid date: a cut-off before the epoch is the epoch
 * (nothing recon wrote is older), so "keep everything" never turns into "compare with an invalid date".
 */
function cutoffOf(now: Date, keepDays: number): Date {
  const days = Math.min(Math.max(0, Math.trunc(keepDays)), MAX_KEEP_DAYS);
  return new Date(Math.max(0, now.getTime() - days * DAY_MS));
}

export async function prune(
  c: DuckDBConnection, settings: RetentionSettings, o: { runId: string; dryRun: boolean; now: Date },
): Promise<PruneResult> {
  const cutoff = cutoffOf(o.now, settings.keepDays);
  const at = cutoff.getTime();
  const empty = () => ({ removed: 0, kept: 0, removedBytes: 0 });
  const out: PruneResult = { dryRun: o.dryRun, keepDays: settings.keepDays, cutoff,
    reports: { ...empty(), removedPaths: [] }, blobs: { ...empty(), keptNeeded: 0, removedPaths: [] }, logs: empty() };
  const remove = async (file: string) => {
    if (!o.dryRun) await rm(file, { force: true });
  };

  // workbooks and results of runs the store records: the newest run's, and those an unresolved finding needs, stay
  const known = await knownRuns(c);
  const needed = await neededRuns(c);
  const reports = (await runReports(settings.reportsDir)).filter((r) => known.has(r.runId));
  const newest = reports.reduce((a, r) => Math.max(a, r.at.getTime()), 0);
  for (const r of reports) {
    if (r.at.getTime() >= at || r.at.getTime() === newest || needed.has(r.runId)) {
      out.reports.kept += 1;
      continue;
    }
    await remove(r.path);
    out.reports.removed += 1;
    out.reports.removedPaths.push(r.path);
  }

  // downloaded files the store names: one goes when no needed disbursement file names it
  const neededShas = await neededBlobs(c, cutoff);
  const referenced = await referencedBlobs(c);
  const pruned: string[] = [];
  for (const blob of await listBlobs(settings.filesDir)) {
    if (!referenced.has(blob.name)) continue; // not a file recon downloaded: never recon's to remove
    if (neededShas.has(blob.name)) {
      out.blobs.kept += 1;
      out.blobs.keptNeeded += 1;
      continue;
    }
    await remove(blob.path);
    pruned.push(blob.name);
    out.blobs.removed += 1;
    out.blobs.removedBytes += blob.bytes;
    out.blobs.removedPaths.push(blob.path);
  }
  if (!o.dryRun) await recordPrunedBlobs(c, pruned, o.runId);

  for (const file of settings.logFiles) {
    const trimmed = await trimLog(file, at, o.dryRun);
    if (!trimmed) continue;
    out.logs.removed += trimmed.removedLines;
    out.logs.kept += trimmed.keptLines;
    out.logs.removedBytes += trimmed.removedBytes;
  }
  return out;
}
