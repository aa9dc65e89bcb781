import { EXIT } from '../exit-codes.js';
import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, requireService, type OptionKey } from '../../config.js';
import { createLogger } from '../../log.js';
import { withJob } from '../../../pipelines/job.js';
import { recordSyncCounters, syncStep } from '../../../pipelines/sync-job.js';

/** The settings `recon sync` takes (tests and benchmarks run the sync in-process with the same ones). */
export const SYNC_KEYS: OptionKey[] = ['apiUrl', 'apiKey', 'db', 'since', 'full', 'lookbackDays', 'perPage', 'concurrency', 'ratePerMinute',
  'timeoutMs', 'maxFileMb', 'memoryMb', 'syncMemoryMb', 'sampleBudget', 'insecureHttp', 'logFile'];

export const command: Command = {
  name: 'sync',
  summary: 'Pull delivered disbursements into DuckDB',
  usage: `Usage: recon sync [options]\n\nPulls delivered disbursements with their payouts, refunds, adjustments and files.\n\n${optionsHelp(SYNC_KEYS)}`,
  async run(argv) {
    const { config } = parseCommandArgs(argv, SYNC_KEYS);
    const service = requireService(config);
    const logger = createLogger({ logFile: config.logFile, apiKey: config.apiKey });
    return withJob('sync', config, logger, async (ctx) => {
      const result = await syncStep(ctx, config, logger);
      recordSyncCounters(ctx, result);
      logger.info({ runId: ctx.runId, ...result, ...ctx.counters }, 'sync finished');
      return EXIT.OK;
    }, { serviceUrl: service.apiUrl });
  },
};
