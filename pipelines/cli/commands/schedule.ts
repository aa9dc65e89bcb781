import type { Command } from '../command.js';
import { EXIT } from '../../../src/errors.js';
import { optionsHelp, parseCommandArgs, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { scheduleNightly } from '../../schedule.js';
import { notice } from '../notice.js';

const KEYS = COMMAND_OPTIONS.schedule;

export const command: Command = {
  name: 'schedule',
  usage: `Usage: recon schedule [options]

Runs \`recon run\` at RECON_CRON (default '30 2 * * *') in RECON_TZ (default UTC), correct across
daylight-saving changes; runs at once if the last successful run is older than one period; never two at
once (a manual recon run beside it exits 3). SIGINT/SIGTERM: the run in progress finishes its current
disbursements, is recorded as interrupted, and the scheduler exits.

${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config } = parseCommandArgs(argv, KEYS);
    const logger = openTerminal(config).logger;
    const scheduler = scheduleNightly(config, logger, { notice });
    await scheduler.started;
    logger.info({ cron: config.cron, tz: config.tz }, 'scheduler started');
    process.stderr.write(`recon schedule: running '${config.cron}' in ${config.tz}; Ctrl-C to stop\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.removeListener('SIGINT', stop);
        process.removeListener('SIGTERM', stop);
        void scheduler.stop().then(resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return EXIT.OK;
  },
};
