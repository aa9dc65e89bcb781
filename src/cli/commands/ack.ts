import { userInfo } from 'node:os';
import type { Command } from '../command.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { optionsHelp, parseCommandArgs, type OptionKey } from '../../config.js';
import { createLogger } from '../../log.js';
import { ackFinding } from '../../checks/index.js';
import { withJob } from '../../../pipelines/job.js';

const KEYS: OptionKey[] = ['db', 'memoryMb', 'logFile'];

export const command: Command = {
  name: 'ack',
  summary: 'Acknowledge a finding',
  usage: `Usage: recon ack <key> --note "why this is accepted" [--by NAME] [options]\n\nThe key is in the Key column of the workbook (or SELECT finding_key FROM open_exceptions).\nAn acknowledged finding stays out of "new" until its numbers change.\n\n  --note TEXT            required\n  --by NAME              who acknowledges (default: the OS user)\n${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, positionals, extra } = parseCommandArgs(argv, KEYS, { note: { type: 'string' }, by: { type: 'string' } });
    const key = positionals[0];
    if (!key) throw new UsageError('recon ack needs the finding key: recon ack <key> --note "…"');
    if (typeof extra.note !== 'string' || extra.note.trim() === '') throw new UsageError('recon ack needs --note "…" saying why the finding is accepted');
    const by = typeof extra.by === 'string' ? extra.by : userInfo().username;
    const logger = createLogger({ logFile: config.logFile });
    return withJob('ack', config, logger, async (ctx) => {
      const r = await ackFinding(ctx.store.connection, { key, note: extra.note as string, by });
      process.stdout.write(`acknowledged ${r.key} (${r.checkId}${r.disbursementId ? `, ${r.disbursementId}` : ''}${r.subject ? `, ${r.subject}` : ''}) by ${r.ackBy}\n`);
      return EXIT.OK;
    });
  },
};
