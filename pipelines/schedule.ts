// recon schedule: the nightly job on a cron schedule, catching up a night missed since the last success
// (read from the published snapshot: reading it never blocks a run).
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { startScheduler, type Scheduler } from '../src/ops/schedule.js';
import { openReadOnly } from '../src/store/publish.js';
import { lastSuccessfulRun } from '../src/store/runs.js';
import { runNightly } from './nightly.js';
import type { Notices } from './run.js';
import { layoutOf } from './settings.js';

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

export function scheduleNightly(config: Config, logger: Logger, opts: Notices = {}): Scheduler {
  const { published } = layoutOf(config);
  return startScheduler({
    cron: config.cron,
    timeZone: config.tz,
    logger,
    lastSuccess: () => lastSuccess(published),
    runNight: async () => (await runNightly(config, logger, { notice: opts.notice })).code,
  });
}
