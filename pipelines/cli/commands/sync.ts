import { EXIT } from '../../../src/errors.js';
import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, COMMAND_OPTIONS } from '../../config.js';
import { watchSync } from '../progress.js';
import { describePauses, describeSync } from '../summary.js';
import { notice } from '../notice.js';
import { runSync } from '../../sync.js';

const KEYS = COMMAND_OPTIONS.sync;

export const command: Command = {
  name: 'sync',
  usage: `Usage: recon sync [options]

Pulls delivered disbursements with their payouts, refunds, adjustments and files.

${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config } = parseCommandArgs(argv, KEYS);
    const { out, elapsedMs } = await watchSync(config, (logger, onProgress) =>
      runSync(config, logger, { notice, onProgress }),
    );
    if (out.code === EXIT.OK && out.result) {
      process.stdout.write(`recon sync ${out.runId}: ${describeSync(out.result)}; ${out.requests} requests\n`);
      const paused = describePauses(out.result.pauses, elapsedMs);
      if (paused) process.stdout.write(`  ${paused}\n`);
    }
    return out.code;
  },
};
