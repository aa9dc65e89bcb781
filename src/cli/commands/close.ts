import type { Command } from '../command.js';
import { UsageError } from '../../errors.js';
import { optionsHelp, parseCommandArgs, requireExistingStore, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { runMonthlyClose } from '../../../pipelines/monthly-close.js';
import { describeOutlets } from '../summary.js';

const KEYS = COMMAND_OPTIONS.close;

export const command: Command = {
  name: 'close',
  usage: `Usage: recon close --month YYYY-MM [--reissue] [options]\n\nWrites <reports>/close-YYYY-MM.xlsx (per recipient × currency, disbursements, open findings, balanced journal)\nand marks the month closed; --journal-format writes the journal as your ledger's import CSV beside it (one file per currency). A closed month changed later is a post_close_change finding; --reissue writes the next version.\n\n  --month YYYY-MM        the month of delivered_at (UTC)\n  --reissue              close an already closed month again as a new version\n${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, extra } = parseCommandArgs(argv, KEYS, { month: { type: 'string' }, reissue: { type: 'boolean' } });
    requireExistingStore(config);
    if (typeof extra.month !== 'string') throw new UsageError('recon close needs --month YYYY-MM');
    const logger = openTerminal(config).logger;
    const out = await runMonthlyClose(config, logger, { month: extra.month, reissue: extra.reissue === true, notice });
    if (out.workbook) {
      process.stdout.write(`close ${out.month} v${out.version}: ${out.disbursements} disbursements → ${out.workbook}\n`);
      process.stdout.write(out.provisional.length === 0 ? 'final: no open error findings, no variance, nothing in suspense\n'
        : `PROVISIONAL (exit 1): ${out.provisional.join('; ')}\n`);
    }
    process.stdout.write(describeOutlets(out.outlets));
    return out.code;
  },
};
