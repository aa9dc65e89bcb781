// The nightly job: sync → bank statements → checks → exception workbook → archive closed months → publish the
// read-only snapshot.
// Exit 0 when everything reconciles, 1 when findings need a person (workbook written), 2 on failure.
import type { Logger } from 'pino';
import { EXIT, type ExitCode } from '../src/errors.js';
import type { Config } from './config.js';
import { markShown, runChecks, type CheckRunResult } from '../src/checks/index.js';
import { writeRunWorkbook } from '../src/report/run-report.js';
import { publishSnapshot } from '../src/store/publish.js';
import { syncStage, type SyncProgressListener, type SyncTuning } from '../src/sync/stage.js';
import type { SyncResult } from '../src/sync/run.js';
import { bankStage, type BankStepResult } from '../src/bank/stage.js';
import { requireReadableFolder, requireWritableFolder } from '../src/files.js';
import { removeStaleTemporaries } from '../src/report/workbook-file.js';
import { withRun, type Notices } from './run.js';
import {
  archiveSettings, bankSettings, runSettings, outletSettings, reportSettings, syncSettings, layoutOf, warehouseSettings,
} from './settings.js';
import { archiveMonths } from '../src/store/archive.js';
import { addRunWarning } from '../src/store/run-notes.js';
import type { RunContext } from './run.js';
import type { OutletSettings } from '../src/outlets/settings.js';
import { withNightOutlets, type NightHooks } from '../src/outlets/night.js';
import type { OutletsReport } from '../src/outlets/deliver.js';
import type { PostgresExportResult } from '../src/warehouse/export.js';
import { exportAfterNight } from './warehouse.js';
import { saveOwnerRules } from '../src/store/owner-rules.js';

export interface NightlyOutcome {
  code: ExitCode;
  runId: string | null;
  sync: SyncResult | null;
  checks: CheckRunResult | null;
  bank: BankStepResult | null;
  workbook: string | null;
  published: string | null;
  /** Why the run did not complete (exit 2, or 3: who holds the lock), as said on stderr. */
  error: string | null;
  /** What the mail, alerts, pings, metrics and results files did. */
  outlets?: OutletsReport;
  /** The export to PostgreSQL after the night (--export-postgres): what it wrote, or the warning its failure is. */
  export?: { warning: string | null; result: PostgresExportResult | null };
}

type NightlyOptions = Notices & {
  tuning?: SyncTuning;
  handleSignals?: boolean;
  onProgress?: SyncProgressListener;
  outlets?: Partial<OutletSettings>;
};

export async function runNightly(config: Config, logger: Logger, opts: NightlyOptions = {}): Promise<NightlyOutcome> {
  const pg = warehouseSettings(config); // a URL that cannot work stops the run before the night, not after
  const out: NightlyOutcome = await withNightOutlets(outletSettings(config, opts.outlets), logger, (hooks) =>
    nightly(config, logger, opts, hooks),
  );
  // the night's outcome is settled: a failed export is a warning on it, never its exit code
  if (pg && out.runId && out.published && (out.code === EXIT.OK || out.code === EXIT.EXCEPTIONS)) {
    out.export = await exportAfterNight(config, pg, logger, out.runId);
    if (out.export.warning)
      opts.notice?.(`recon run: warning: ${out.export.warning} (the night's outcome is unchanged)`);
  }
  return out;
}

async function nightly(
  config: Config,
  logger: Logger,
  opts: NightlyOptions,
  outlets: NightHooks,
): Promise<NightlyOutcome> {
  const sync = syncSettings(config);
  const bank = bankSettings(config);
  const report = reportSettings(config);
  const { published } = layoutOf(config);
  // found now, not after a two-hour sync
  await requireWritableFolder(report.reportsDir, '--reports / RECON_REPORTS_DIR');
  if (bank.bankDir) await requireReadableFolder(bank.bankDir, '--bank-dir / RECON_BANK_DIR');
  const outcome: NightlyOutcome = {
    code: EXIT.FAILED,
    runId: null,
    sync: null,
    checks: null,
    bank: null,
    workbook: null,
    published: null,
    error: null,
  };
  outcome.code = await withRun(
    'run',
    runSettings(config),
    logger,
    async (ctx) => {
      outcome.runId = ctx.runId;
      outlets.begin(ctx.runId);
      const c = ctx.store.connection;
      const stale = await removeStaleTemporaries(report.reportsDir);
      if (stale > 0) logger.info({ removed: stale }, 'removed temp workbooks left by killed runs');
      outcome.sync = await syncStage(ctx, sync, logger, opts.tuning, opts.onProgress);
      if (ctx.signal.aborted) return EXIT.FAILED; // interrupted: no checks on a partial night
      outcome.bank = await bankStage(c, bank, ctx.runId, logger);
      for (const refused of outcome.bank?.refused ?? []) ctx.notice(`recon: bank statement refused: ${refused}`);
      if (config.defaultOwners) await saveOwnerRules(c, config.defaultOwners);
      // what changed since the last check run, by each check's scope (src/checks/scope.ts); full when nothing
      // before it shares its basis. `recon check --full` checks the whole store.
      outcome.checks = await runChecks(c, { runId: ctx.runId, mode: 'incremental' });
      const written = await writeRunWorkbook(c, {
        runId: ctx.runId,
        reportsDir: report.reportsDir,
        serviceUrl: sync.apiUrl,
        checks: outcome.checks,
        rates: report.rates,
      });
      outcome.workbook = written.path;
      await markShown(c, ctx.runId);
      await outlets.collect(c, {
        runId: ctx.runId,
        checks: outcome.checks,
        counters: ctx.counters,
        workbook: written.path,
      });
      const { findings, actionable, mode, fullReason, scope } = outcome.checks;
      logger.info(
        { runId: ctx.runId, findings, actionable, workbook: written.path, checks: mode, fullReason, scope },
        'checks done, workbook written',
      );
      await archiveStep(ctx, config, logger);
      return outcome.checks.actionable > 0 ? EXIT.EXCEPTIONS : EXIT.OK;
    },
    {
      serviceUrl: sync.apiUrl,
      handleSignals: opts.handleSignals,
      notice: opts.notice,
      onStopped: (message) => {
        outcome.error = message;
      },
      afterSuccess: async (ctx) => {
        const { archiveDir } = archiveSettings(config);
        const snap = await publishSnapshot({
          sourceConnection: ctx.store.connection,
          publishedPath: published,
          runId: ctx.runId,
          archiveDir,
        });
        outcome.published = snap.path;
        logger.info(
          {
            runId: ctx.runId,
            published: snap.path,
            bytes: snap.bytes,
            monthFilesWritten: snap.filesWritten,
            monthBytesWritten: snap.bytesWritten,
            monthFilesRemoved: snap.filesRemoved,
          },
          'snapshot published',
        );
      },
    },
  );
  return outcome;
}

/**
 * The closed months past --archive-after-months leave the store (src/store/archive.ts). A failure is the
 * night's warning, never its outcome: nothing left the store, and the next night tries again.
 */
async function archiveStep(ctx: RunContext, config: Config, logger: Logger): Promise<void> {
  try {
    const done = await archiveMonths(ctx.store.connection, archiveSettings(config), ctx.runId, new Date());
    if (done.months.length > 0) logger.info({ ...done }, 'closed months archived');
  } catch (err) {
    const message = `archiving closed months failed: ${(err as Error).message}`;
    logger.warn({ err: message }, 'the store keeps those months; the next night tries again');
    ctx.notice(`recon run: warning: ${message}`);
    await addRunWarning(ctx.store.connection, ctx.runId, message).catch(() => undefined);
  }
}
