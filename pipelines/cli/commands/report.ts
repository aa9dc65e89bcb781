import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, requireExistingStore, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { runReport } from '../../report.js';

const KEYS = COMMAND_OPTIONS.report;

export const command: Command = {
  name: 'report',
  usage: `Usage: recon report [--run RUN_ID] [options]

Writes <reports>/recon-<date>-<run_id>.xlsx for the latest check run (or --run).
Exit 0 no findings to look at, 1 findings new or open, 2 failure.

  --run RUN_ID           a given check run
${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, extra } = parseCommandArgs(argv, KEYS, { run: { type: 'string' } });
    requireExistingStore(config);
    const out = await runReport(config, openTerminal(config).logger, {
      checkRunId: typeof extra.run === 'string' ? extra.run : undefined,
      notice,
    });
    if (out.workbook) process.stdout.write(`${out.workbook}\n`);
    return out.code;
  },
};
