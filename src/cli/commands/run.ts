import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, type OptionKey } from '../../config.js';
import { createLogger } from '../../log.js';
import { runNightly } from '../../../pipelines/nightly.js';

export const RUN_KEYS: OptionKey[] = ['apiUrl', 'apiKey', 'db', 'reports', 'published', 'since', 'full', 'lookbackDays', 'perPage',
  'concurrency', 'ratePerMinute', 'timeoutMs', 'maxFileMb', 'memoryMb', 'syncMemoryMb', 'sampleBudget', 'insecureHttp', 'logFile'];

export const command: Command = {
  name: 'run',
  summary: 'Nightly job once',
  usage: `Usage: recon run [options]\n\nsync → checks → exception workbook → publish the read-only snapshot.\nExit 0 reconciled, 1 exceptions found (workbook written), 2 failed, 3 another run holds the lock.\n\n${optionsHelp(RUN_KEYS)}`,
  async run(argv) {
    const { config } = parseCommandArgs(argv, RUN_KEYS);
    const logger = createLogger({ logFile: config.logFile, apiKey: config.apiKey });
    const out = await runNightly(config, logger);
    if (out.workbook) process.stdout.write(`workbook: ${out.workbook}\n`);
    if (out.published) process.stdout.write(`published: ${out.published}\n`);
    return out.code;
  },
};
