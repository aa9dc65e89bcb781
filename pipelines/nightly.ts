// The nightly job: sync → checks → exception workbook → publish the read-only snapshot.
// Exit 0 when everything reconciles, 1 when findings need a person (workbook written), 2 on failure.
import type { Logger } from 'pino';
import { EXIT, type ExitCode } from '../src/errors.js';
import type { Config } from '../src/config.js';
import { requireService } from '../src/config.js';
import { markShown, runChecks, type CheckRunResult } from '../src/checks/index.js';
import { writeRunWorkbook } from '../src/report/run-report.js';
import { publishSnapshot } from '../src/ops/publish.js';
import { withJob } from './job.js';
import { recordSyncCounters, syncStep, type SyncProgressListener, type SyncTuning } from './sync-job.js';
import { requireWritableFolder } from '../src/ops/folders.js';
import { removeStaleTemporaries } from '../src/report/workbook-file.js';
import type { SyncResult } from './sync.js';
import { bankStep, type BankStepResult } from './bank.js';
import { outletSettings, type OutletSettings } from '../src/outlets/settings.js';
import { withNightOutlets, type NightHooks } from '../src/outlets/night.js';
import type { OutletsReport } from '../src/outlets/deliver.js';

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
  /** What the mail, alerts, pings, metrics and results files did (#29). */
  outlets?: OutletsReport;
}

type NightlyOptions = { tuning?: SyncTuning; handleSignals?: boolean; onProgress?: SyncProgressListener; outlets?: Partial<OutletSettings> };

export async function runNightly(config: Config, logger: Logger, opts: NightlyOptions = {}): Promise<NightlyOutcome> {
  return withNightOutlets(outletSettings(config, opts.outlets), logger, (hooks) => nightly(config, logger, opts, hooks));
}

async function nightly(config: Config, logger: Logger, opts: NightlyOptions, outlets: NightHooks): Promise<NightlyOutcome> {
  const service = requireService(config);
  // found now, not after a two-hour sync
  await requireWritableFolder(config.reports, '--reports / RECON_REPORTS_DIR');
  const outcome: NightlyOutcome = { code: EXIT.FAILED, runId: null, sync: null, checks: null, bank: null, workbook: null, published: null, error: null };
  outcome.code = await withJob(
    'run',
    config,
    logger,
    async (ctx) => {
      outcome.runId = ctx.runId;
      outlets.begin(ctx.runId);
      const stale = await removeStaleTemporaries(config.reports);
      if (stale > 0) logger.info({ removed: stale }, 'removed temp workbooks left by killed runs');
      outcome.sync = await syncStep(ctx, config, logger, opts.tuning, opts.onProgress);
      recordSyncCounters(ctx, outcome.sync);
      if (ctx.signal.aborted) return EXIT.FAILED; // interrupted: no checks on a partial night
      outcome.bank = await bankStep(ctx.store.connection, config, ctx.runId, logger);
      for (const refused of outcome.bank?.refused ?? []) process.stderr.write(`recon: bank statement refused: ${refused}\n`);
      outcome.checks = await runChecks(ctx.store.connection, { runId: ctx.runId });
      const written = await writeRunWorkbook(ctx.store.connection, {
        runId: ctx.runId,
        reportsDir: config.reports,
        serviceUrl: service.apiUrl,
        checks: outcome.checks,
      });
      outcome.workbook = written.path;
      await markShown(ctx.store.connection, ctx.runId);
      await outlets.collect(ctx.store.connection, { runId: ctx.runId, checks: outcome.checks, counters: ctx.counters, workbook: written.path });
      logger.info({ runId: ctx.runId, findings: outcome.checks.findings, actionable: outcome.checks.actionable, workbook: written.path }, 'checks done, workbook written');
      return outcome.checks.actionable > 0 ? EXIT.EXCEPTIONS : EXIT.OK;
    },
    {
      serviceUrl: service.apiUrl,
      handleSignals: opts.handleSignals,
      onStopped: (message) => { outcome.error = message; },
      afterSuccess: async (ctx) => {
        await ctx.store.connection.run('CHECKPOINT');
        const snap = await publishSnapshot({ sourceConnection: ctx.store.connection, publishedPath: config.published, runId: ctx.runId });
        outcome.published = snap.path;
        logger.info({ runId: ctx.runId, published: snap.path, bytes: snap.bytes }, 'snapshot published');
      },
    },
  );
  return outcome;
}
