import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, COMMAND_OPTIONS } from '../../config.js';
import { runNightly } from '../../nightly.js';
import { watchSync } from '../progress.js';
import { describeRun } from '../summary.js';
import { notice } from '../notice.js';
import { EXIT } from '../../../src/errors.js';

const KEYS = COMMAND_OPTIONS.run;

export const command: Command = {
  name: 'run',
  usage: `Usage: recon run [options]

sync → checks → exception workbook → publish the read-only snapshot.
Exit 0 reconciled, 1 exceptions found (workbook written), 2 failed, 3 another run holds the lock.

${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config } = parseCommandArgs(argv, KEYS);
    const { out, elapsedMs, logFile } = await watchSync(config, (logger, onProgress) =>
      runNightly(config, logger, { notice, onProgress }),
    );
    // Another run holds the lock: nothing happened here, and stderr already says who holds it.
    if (out.code === EXIT.LOCKED) return out.code;
    process.stdout.write(describeRun({ ...out, elapsedMs, logFile }));
    return out.code;
  },
};
