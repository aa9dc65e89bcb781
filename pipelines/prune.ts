// recon prune: the retention stage (src/retention) under the run lock, as a recorded run; --dry-run removes
// nothing and says what would go.
import type { Logger } from 'pino';
import { EXIT, type ExitCode } from '../src/errors.js';
import type { Config } from './config.js';
import { prune, type PruneResult } from '../src/retention/index.js';
import { withRun, type Notices } from './run.js';
import { runSettings, retentionSettings } from './settings.js';

interface PruneOutcome {
  code: ExitCode;
  result: PruneResult | null;
}

export async function runPrune(
  config: Config,
  logger: Logger,
  opts: Notices & { dryRun?: boolean; now?: () => Date } = {},
): Promise<PruneOutcome> {
  const settings = retentionSettings(config);
  const out: PruneOutcome = { code: EXIT.FAILED, result: null };
  out.code = await withRun('prune', runSettings(config), logger, async (ctx) => {
    const r = await prune(ctx.store.connection, settings, {
      runId: ctx.runId,
      dryRun: opts.dryRun === true,
      now: opts.now?.() ?? new Date(),
    });
    out.result = r;
    logger.info(
      {
        dryRun: r.dryRun,
        cutoff: r.cutoff.toISOString(),
        reports: r.reports.removed,
        blobs: r.blobs.removed,
        logLines: r.logs.removed,
      },
      'prune done',
    );
    return EXIT.OK;
  }, { notice: opts.notice });
  return out;
}
