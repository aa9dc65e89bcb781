import { EXIT } from '../../errors.js';
import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, requireService, type OptionKey } from '../../config.js';
import { openTerminal } from '../progress.js';
import { describeSync } from '../summary.js';
import { withJob } from '../../../pipelines/job.js';
import { recordSyncCounters, syncStep } from '../../../pipelines/sync-job.js';

/** The settings `recon sync` takes (tests and benchmarks run the sync in-process with the same ones). */
export const SYNC_KEYS: OptionKey[] = ['apiUrl', 'apiKey', 'db', 'since', 'full', 'lookbackDays', 'perPage', 'concurrency', 'ratePerMinute',
  'timeoutMs', 'maxFileMb', 'maxLines', 'memoryMb', 'syncMemoryMb', 'sampleBudget', 'insecureHttp', 'logFile', 'layouts'];

export const command: Command = {
  name: 'sync',
  summary: 'Pull delivered disbursements into DuckDB',
  usage: `Usage: recon sync [options]\n\nPulls delivered disbursements with their payouts, refunds, adjustments and files.\n\n${optionsHelp(SYNC_KEYS)}`,
  async run(argv) {
    const { config } = parseCommandArgs(argv, SYNC_KEYS);
    const service = requireService(config);
    const terminal = openTerminal(config);
    const { logger } = terminal;
    return withJob('sync', config, logger, async (ctx) => {
      let result;
      try {
        result = await syncStep(ctx, config, logger, {}, (p) => terminal.progress.update(p));
      } finally {
        terminal.progress.done();
      }
      recordSyncCounters(ctx, result);
      logger.info({ runId: ctx.runId, ...result, ...ctx.counters }, 'sync finished');
      process.stdout.write(`recon sync ${ctx.runId}: ${describeSync(result)}; ${ctx.counters.requests ?? 0} requests\n`);
      return EXIT.OK;
    }, { serviceUrl: service.apiUrl });
  },
};
