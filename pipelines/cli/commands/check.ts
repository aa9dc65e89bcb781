import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, requireExistingStore, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { runCheckJob } from '../../check.js';

const KEYS = COMMAND_OPTIONS.check;

export const command: Command = {
  name: 'check',
  usage: `Usage: recon check [--only id,id] [options]\n\nRuns every sql/checks/<check_id>.sql over the store and updates the exception lifecycle.\nExit 0 nothing to look at, 1 findings new or open (not acknowledged), 2 failure.\n\n  --only ID,ID           run only these checks\n${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, extra } = parseCommandArgs(argv, KEYS, { only: { type: 'string' } });
    requireExistingStore(config);
    const only = typeof extra.only === 'string' ? extra.only.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
    const out = await runCheckJob(config, openTerminal(config).logger, { only, notice });
    const result = out.result;
    if (result) {
      for (const b of result.byCheck) process.stdout.write(`${b.checkId.padEnd(24)} ${b.severity.padEnd(8)} ${b.count}\n`);
      process.stdout.write(`run ${out.runId}: ${result.findings} findings (${result.byStatus.new} new, ${result.byStatus.open} open, `
        + `${result.byStatus.acknowledged} acknowledged, ${result.byStatus.resolved} resolved)\n`);
    }
    return out.code;
  },
};
