import type { Command } from '../command.js';
import { EXIT } from '../../errors.js';
import { optionsHelp, parseCommandArgs, type OptionKey } from '../../config.js';
import { openTerminal } from '../progress.js';
import { startScheduler } from '../../ops/schedule.js';
import { openReadOnly } from '../../ops/publish.js';
import { lastSuccessfulRun } from '../../load/runs.js';
import { runNightly } from '../../../pipelines/nightly.js';
import { RUN_KEYS } from './run.js';

const KEYS: OptionKey[] = [...RUN_KEYS, 'cron', 'tz'];

/** Last successful nightly run, from the published snapshot (reading it never blocks a run). */
async function lastSuccess(published: string): Promise<Date | null> {
  let db;
  try {
    db = await openReadOnly(published);
  } catch {
    return null; // no snapshot yet: never ran successfully
  }
  try {
    return await lastSuccessfulRun(db.connection);
  } finally {
    db.connection.closeSync();
    db.instance.closeSync();
  }
}

export const command: Command = {
  name: 'schedule',
  summary: 'Run the nightly job on a cron schedule',
  usage: `Usage: recon schedule [options]\n\nRuns \`recon run\` at RECON_CRON (default '30 2 * * *') in RECON_TZ (default UTC), correct across\ndaylight-saving changes; runs at once if the last successful run is older than one period; never two at\nonce (a manual recon run beside it exits 3). SIGINT/SIGTERM: the run in progress finishes its current\ndisbursements, is recorded as interrupted, and the scheduler exits.\n\n${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config } = parseCommandArgs(argv, KEYS);
    const logger = openTerminal(config).logger;
    const scheduler = startScheduler({
      cron: config.cron,
      timeZone: config.tz,
      logger,
      lastSuccess: () => lastSuccess(config.published),
      runJob: async () => (await runNightly(config, logger)).code,
    });
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
