// recon report: the exception workbook of a check run (the latest, or one named), as one recorded run.
import type { Logger } from 'pino';
import { EXIT, UsageError, type ExitCode } from '../src/errors.js';
import type { Config } from './config.js';
import { checkRunSummary, markShown } from '../src/checks/index.js';
import { latestCheckRun } from '../src/store/read/runs.js';
import { serviceUrlOf } from '../src/store/runs.js';
import { writeRunWorkbook } from '../src/report/run-report.js';
import { republish, withRun, type Notices } from './run.js';
import { runSettings, layoutOf, reportSettings } from './settings.js';
import { saveOwnerRules } from '../src/store/owner-rules.js';

interface ReportOutcome {
  code: ExitCode;
  workbook: string | null;
}

export async function runReport(
  config: Config,
  logger: Logger,
  opts: Notices & { checkRunId?: string } = {},
): Promise<ReportOutcome> {
  const report = reportSettings(config);
  const { published } = layoutOf(config);
  const out: ReportOutcome = { code: EXIT.FAILED, workbook: null };
  out.code = await withRun(
    'report',
    runSettings(config),
    logger,
    async (ctx) => {
      const c = ctx.store.connection;
      const run = await latestCheckRun(c, opts.checkRunId);
      if (!run)
        throw new UsageError(
          opts.checkRunId
            ? `no check run ${opts.checkRunId}`
            : 'no check run yet: run recon check (or recon run) first',
        );
      if (config.defaultOwners) await saveOwnerRules(c, config.defaultOwners);
      const checks = await checkRunSummary(c, run.runId, run.checkedAt);
      const written = await writeRunWorkbook(c, {
        runId: run.runId,
        reportsDir: report.reportsDir,
        serviceUrl: await serviceUrlOf(c, report.serviceUrl),
        checks,
        rates: report.rates,
      });
      await markShown(c, run.runId);
      out.workbook = written.path;
      return checks.actionable > 0 ? EXIT.EXCEPTIONS : EXIT.OK;
    },
    {
      notice: opts.notice,
      // accountants' recon sql reads the snapshot: it shows this run's findings, not the previous run's
      afterSuccess: republish(published),
    },
  );
  return out;
}
