import type { Command } from '../command.js';
import { optionsHelp, parseCommandArgs, type OptionKey } from '../../config.js';
import { runNightly } from '../../../pipelines/nightly.js';
import { openTerminal } from '../progress.js';
import { describeRun } from '../summary.js';
import { notice } from '../notice.js';
import { EXIT } from '../../errors.js';

export const RUN_KEYS: OptionKey[] = ['apiUrl', 'apiKey', 'db', 'reports', 'published', 'since', 'full', 'lookbackDays', 'perPage',
  'concurrency', 'ratePerMinute', 'timeoutMs', 'maxFileMb', 'maxLines', 'memoryMb', 'syncMemoryMb', 'sampleBudget', 'insecureHttp', 'logFile', 'layouts', 'bankDir', 'bankWindowDays', 'bankFeeTolerance',
  'mailTo', 'mailFrom', 'smtpUrl', 'mailMaxAttachmentMb', 'notifyUrl', 'pingUrl', 'metricsFile', 'junit'];

export const command: Command = {
  name: 'run',
  summary: 'Nightly job once',
  usage: `Usage: recon run [options]\n\nsync → checks → exception workbook → publish the read-only snapshot.\nExit 0 reconciled, 1 exceptions found (workbook written), 2 failed, 3 another run holds the lock.\n\n${optionsHelp(RUN_KEYS)}`,
  async run(argv) {
    const { config } = parseCommandArgs(argv, RUN_KEYS);
    const started = Date.now();
    const terminal = openTerminal(config);
    let out;
    try {
      out = await runNightly(config, terminal.logger, { notice, onProgress: (p) => terminal.progress.update(p) });
    } finally {
      terminal.progress.done();
    }
    // Another run holds the lock: nothing happened here, and stderr already says who holds it.
    if (out.code === EXIT.LOCKED) return out.code;
    process.stdout.write(describeRun({ ...out, elapsedMs: Date.now() - started, logFile: terminal.logFile }));
    return out.code;
  },
};
