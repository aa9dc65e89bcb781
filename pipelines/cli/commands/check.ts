import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, requireExistingStore, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { runCheckJob } from '../../check.js';
import type { CheckRunResult } from '../../../src/checks/index.js';

const KEYS = COMMAND_OPTIONS.check;

export const command: Command = {
  name: 'check',
  usage: `Usage: recon check [--only id,id] [--full] [options]

Runs every sql/checks/<check_id>.sql over what changed since the last check run (each check by the scope its
header declares; the other findings carried forward) and updates the exception lifecycle.
Exit 0 nothing to look at, 1 findings new or open (not acknowledged), 2 failure.

  --only ID,ID           run only these checks, over the whole store
  --full                 run every check over the whole store
${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, extra } = parseCommandArgs(argv, KEYS, { only: { type: 'string' }, full: { type: 'boolean' } });
    requireExistingStore(config);
    const only = typeof extra.only === 'string' ? extra.only.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
    const out = await runCheckJob(config, openTerminal(config).logger, { only, full: extra.full === true, notice });
    const result = out.result;
    if (result) {
      for (const b of result.byCheck) process.stdout.write(`${b.checkId.padEnd(24)} ${b.severity.padEnd(8)} ${b.count}\n`);
      process.stdout.write(`run ${out.runId}: ${result.findings} findings (${result.byStatus.new} new, ${result.byStatus.open} open, `
        + `${result.byStatus.acknowledged} acknowledged, ${result.byStatus.resolved} resolved)\n`);
      process.stdout.write(`${checkedHow(result)}\n`);
    }
    return out.code;
  },
};

/** How the run checked: what an incremental night re-checked and carried, or why it checked everything. */
function checkedHow(r: CheckRunResult): string {
  if (r.mode === 'incremental' && r.scope) {
    return `checked what changed: ${r.scope.disbursements} disbursements and ${r.scope.keys} keys re-checked, `
      + `${r.scope.carried} open findings carried forward unchanged`;
  }
  if (r.mode === 'only') return 'checked the named checks over the whole store';
  return `checked the whole store${r.fullReason ? `: ${r.fullReason}` : ''}`;
}
