import { EXIT } from '../../errors.js';
import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, type OptionKey } from '../../config.js';
import { openTerminal } from '../progress.js';
import { describeSync } from '../summary.js';
import { notice } from '../notice.js';
import { runSyncJob } from '../../../pipelines/sync.js';

/** The settings `recon sync` takes (tests and benchmarks run the sync in-process with the same ones). */
export const SYNC_KEYS: OptionKey[] = ['apiUrl', 'apiKey', 'db', 'since', 'full', 'lookbackDays', 'perPage', 'concurrency', 'ratePerMinute',
  'timeoutMs', 'maxFileMb', 'maxLines', 'memoryMb', 'syncMemoryMb', 'sampleBudget', 'insecureHttp', 'logFile', 'layouts'];

export const command: Command = {
  name: 'sync',
  summary: 'Pull delivered disbursements into DuckDB',
  usage: `Usage: recon sync [options]\n\nPulls delivered disbursements with their payouts, refunds, adjustments and files.\n\n${optionsHelp(SYNC_KEYS)}`,
  async run(argv) {
    const { config } = parseCommandArgs(argv, SYNC_KEYS);
    const terminal = openTerminal(config);
    let out;
    try {
      out = await runSyncJob(config, terminal.logger, { notice, onProgress: (p) => terminal.progress.update(p) });
    } finally {
      terminal.progress.done();
    }
    if (out.code === EXIT.OK && out.result) process.stdout.write(`recon sync ${out.runId}: ${describeSync(out.result)}; ${out.requests} requests\n`);
    return out.code;
  },
};
