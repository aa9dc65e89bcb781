import type { Command } from '../command.js';
import { EXIT, UsageError } from '../../errors.js';
import { optionsHelp, parseCommandArgs, requireExistingStore, type OptionKey } from '../../config.js';
import { openTerminal } from '../progress.js';
import { checkRunSummary, markShown } from '../../checks/index.js';
import { serviceUrlOf } from '../../load/runs.js';
import { writeRunWorkbook } from '../../report/run-report.js';
import { withJob } from '../../../pipelines/job.js';

const KEYS: OptionKey[] = ['db', 'reports', 'apiUrl', 'memoryMb', 'logFile'];

export const command: Command = {
  name: 'report',
  summary: 'Write the exception workbook of the latest check run',
  usage: `Usage: recon report [--run RUN_ID] [options]\n\nWrites <reports>/recon-<date>-<run_id>.xlsx for the latest check run (or --run).\nExit 0 no findings to look at, 1 findings new or open, 2 failure.\n\n  --run RUN_ID           a given check run\n${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, extra } = parseCommandArgs(argv, KEYS, { run: { type: 'string' } });
    requireExistingStore(config);
    const logger = openTerminal(config).logger;
    return withJob('report', config, logger, async (ctx) => {
      const c = ctx.store.connection;
      const where = typeof extra.run === 'string' ? 'WHERE run_id = $1' : '';
      const rows = (await c.runAndReadAll(`SELECT run_id, checked_at FROM check_runs ${where} ORDER BY checked_at DESC LIMIT 1`,
        typeof extra.run === 'string' ? [extra.run] : [])).getRowObjectsJS();
      const run = rows[0];
      if (!run) throw new UsageError(typeof extra.run === 'string' ? `no check run ${extra.run}` : 'no check run yet: run recon check (or recon run) first');
      const runId = String(run.run_id);
      const checks = await checkRunSummary(c, runId, run.checked_at as Date);
      const written = await writeRunWorkbook(c, { runId, reportsDir: config.reports, serviceUrl: await serviceUrlOf(c, config.apiUrl), checks });
      await markShown(c, runId);
      process.stdout.write(`${written.path}\n`);
      return checks.actionable > 0 ? EXIT.EXCEPTIONS : EXIT.OK;
    });
  },
};
