import type { Command } from '../command.js';
import { UsageError } from '../../../src/errors.js';
import { optionsHelp, parseCommandArgs, requireExistingStore, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { runMonthlyClose } from '../../monthly-close.js';
import { describeOutlets } from '../summary.js';

const KEYS = COMMAND_OPTIONS.close;

export const command: Command = {
  name: 'close',
  usage: `Usage: recon close --month YYYY-MM [--reissue] [--accept-unaccounted --by NAME --note TEXT] [options]\n\nWrites <reports>/close-YYYY-MM.xlsx (per recipient × currency, disbursements, open findings, balanced journal)\nand marks the month closed; --journal-format writes the journal as your ledger's import CSV beside it (one file per\ncurrency, on your chart of accounts: --accounts; none while provisional unless --provisional-journal). A closed month\nchanged later is a post_close_change finding; --reissue writes the next version, its journal files reversing the last.\n\n  --month YYYY-MM        the month of delivered_at (in --books-tz, UTC by default)\n  --reissue              close an already closed month again as a new version\n  --accept-unaccounted   close final although money is unaccounted for (not arrived, short or over, on another\n                         account, on an unbalanced statement, credited twice or matching nothing, in currency\n                         suspense); needs --by NAME and --note TEXT, kept with the close\n  --by NAME              who accepts it\n  --note TEXT            why\n${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, extra } = parseCommandArgs(argv, KEYS, { month: { type: 'string' }, reissue: { type: 'boolean' },
      'accept-unaccounted': { type: 'boolean' }, by: { type: 'string' }, note: { type: 'string' } });
    if (typeof extra.month !== 'string') throw new UsageError('recon close needs --month YYYY-MM');
    const accept = acceptance(extra);
    requireExistingStore(config);
    const logger = openTerminal(config).logger;
    const out = await runMonthlyClose(config, logger, { month: extra.month, reissue: extra.reissue === true, accept, notice });
    if (out.workbook) {
      process.stdout.write(`close ${out.month} v${out.version}: ${out.disbursements} disbursements → ${out.workbook}\n`);
      process.stdout.write(out.provisional.length === 0 ? 'final: no open error findings, no variance, no money unaccounted for\n'
        : `PROVISIONAL (exit 1): ${out.provisional.join('; ')}\n`);
      if (out.accepted && out.accepted.length > 0) process.stdout.write(`accepted as unaccounted by ${accept?.by ?? ''}: ${out.accepted.join('; ')}\n`);
      else if (accept) process.stdout.write('--accept-unaccounted: nothing was unaccounted for; nothing recorded as accepted\n');
      for (const f of out.journalFiles) process.stdout.write(`journal: ${f}\n`);
      for (const n of out.journalNotes) process.stdout.write(`journal not written: ${n}\n`);
    }
    process.stdout.write(describeOutlets(out.outlets));
    return out.code;
  },
};

const MAX_BY = 100;
const MAX_NOTE = 1000;

/** --accept-unaccounted with its --by and --note, each required with it and refused without it. */
function acceptance(extra: Record<string, string | boolean | undefined>): { by: string; note: string } | null {
  const by = typeof extra.by === 'string' ? extra.by.trim() : undefined;
  const note = typeof extra.note === 'string' ? extra.note.trim() : undefined;
  if (extra['accept-unaccounted'] !== true) {
    if (by !== undefined || note !== undefined) throw new UsageError('--by and --note go with --accept-unaccounted (recon close --month M --accept-unaccounted --by NAME --note TEXT)');
    return null;
  }
  if (!by) throw new UsageError('--accept-unaccounted needs --by NAME: who accepts the money unaccounted for');
  if (!note) throw new UsageError('--accept-unaccounted needs --note TEXT: why the close may be final without it');
  if (by.length > MAX_BY) throw new UsageError(`--by: at most ${MAX_BY} characters`);
  if (note.length > MAX_NOTE) throw new UsageError(`--note: at most ${MAX_NOTE} characters`);
  if (/[\u0000-\u001f\u007f]/.test(by + note)) throw new UsageError('--by and --note: no control characters');
  return { by, note };
}
