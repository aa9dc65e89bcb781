import type { Command } from '../command.js';
import { UsageError } from '../../../src/errors.js';
import { optionsHelp, parseCommandArgs, requireExistingStore, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { runMonthlyClose, type CloseOutcome } from '../../monthly-close.js';
import { describeOutlets } from '../summary.js';
import { terminalText } from '../../../src/report/safe-text.js';

const KEYS = COMMAND_OPTIONS.close;

export const command: Command = {
  name: 'close',
  usage: `Usage: recon close --month YYYY-MM [--reissue] [--accept-unaccounted --by NAME --note TEXT] [options]
       recon close --month YYYY-MM --approve --by NAME [options]

Writes <reports>/close-YYYY-MM.xlsx (per recipient × currency, disbursements, open findings, balanced journal)
and marks the month closed; --journal-format writes the journal as your ledger's import CSV beside it (one file
per currency, on your chart of accounts: --accounts; none while provisional unless --provisional-journal). A
closed month changed later is a post_close_change finding; --reissue writes the next version, its journal files
reversing the last. Beside the workbook, close-YYYY-MM-evidence.zip holds the workbook, the journal, the month's
statements, the latest results, the month's audit trail and a manifest of SHA-256 hashes; the Summary prints the
close's trail entry.

  --month YYYY-MM        the month of delivered_at (in --books-tz, UTC by default)
  --reissue              close an already closed month again as a new version
  --accept-unaccounted   close final although money is unaccounted for (not arrived, short or over, on another
                         account, on an unbalanced statement, credited twice or matching nothing, in currency
                         suspense); needs --by NAME and --note TEXT, kept with the close (above --four-eyes, it
                         waits for a second person's --approve); --by alone names who closes
  --approve              approve the acceptance the latest close waits on (four eyes: --four-eyes); writes the
                         next version; --by names the second person, never the one who accepted
  --note TEXT            why
${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, extra } = parseCommandArgs(argv, KEYS, { month: { type: 'string' }, reissue: { type: 'boolean' },
      'accept-unaccounted': { type: 'boolean' }, approve: { type: 'boolean' }, note: { type: 'string' } });
    if (typeof extra.month !== 'string') throw new UsageError('recon close needs --month YYYY-MM');
    const accept = acceptance(extra, config.ackBy);
    const approve = extra.approve === true;
    if (approve && accept) {
      throw new UsageError('--approve approves an acceptance someone else made; '
        + 'it does not go with --accept-unaccounted');
    }
    if (approve && !config.ackBy) {
      throw new UsageError('--approve needs --by NAME (or RECON_ACK_BY): the second person who approves');
    }
    requireExistingStore(config);
    const logger = openTerminal(config).logger;
    const reissue = extra.reissue === true;
    const out = await runMonthlyClose(config, logger, { month: extra.month, reissue, accept, approve, notice });
    if (out.workbook) {
      process.stdout.write(`close ${out.month} v${out.version}: ${out.disbursements} disbursements → ${out.workbook}\n`);
      process.stdout.write(out.provisional.length === 0 ? 'final: no open error findings, no variance, no money unaccounted for\n'
        : `PROVISIONAL (exit 1): ${out.provisional.join('; ')}\n`);
      if (out.accepted && out.accepted.length > 0) {
        process.stdout.write(terminalText(acceptedLine(out, config.ackBy)) + '\n');
      } else if (accept) {
        process.stdout.write('--accept-unaccounted: nothing was unaccounted for; nothing recorded as accepted\n');
      }
      if (out.trail) {
        process.stdout.write(`audit trail: entry ${out.trail.seq} ${out.trail.hash} `
          + '(on the Summary sheet; recon verify --head checks it)\n');
      }
      if (out.evidence) process.stdout.write(`evidence: ${out.evidence}\n`);
      for (const f of out.journalFiles) process.stdout.write(`journal: ${f}\n`);
      for (const n of out.journalNotes) process.stdout.write(`journal not written: ${n}\n`);
    }
    process.stdout.write(describeOutlets(out.outlets));
    return out.code;
  },
};

const MAX_BY = 100;
const MAX_NOTE = 1000;

/**
 * --accept-unaccounted with who accepts (--by, RECON_ACK_BY or "ackBy") and its --note, each required with it;
 * a --note without it is refused. --by alone names who closes.
 */
function acceptance(
  extra: Record<string, string | boolean | undefined>, ackBy: string | undefined,
): { by: string; note: string } | null {
  const by = ackBy?.trim();
  const note = typeof extra.note === 'string' ? extra.note.trim() : undefined;
  if (extra['accept-unaccounted'] !== true) {
    if (note !== undefined) {
      throw new UsageError('--note goes with --accept-unaccounted '
        + '(recon close --month M --accept-unaccounted --by NAME --note TEXT)');
    }
    return null;
  }
  if (!by) {
    throw new UsageError('--accept-unaccounted needs --by NAME (or RECON_ACK_BY): '
      + 'who accepts the money unaccounted for');
  }
  if (!note) throw new UsageError('--accept-unaccounted needs --note TEXT: why the close may be final without it');
  if (by.length > MAX_BY) throw new UsageError(`--by: at most ${MAX_BY} characters`);
  if (note.length > MAX_NOTE) throw new UsageError(`--note: at most ${MAX_NOTE} characters`);
  if (/[\u0000-\u001f\u007f]/.test(by + note)) throw new UsageError('--by and --note: no control characters');
  return { by, note };
}

/** Who accepted the unaccounted money, whether it waits for or has a second person's approval, and what. */
function acceptedLine(out: CloseOutcome, approver: string | undefined): string {
  const state = out.acceptanceState === 'pending' ? ', waiting for a second person\'s approval'
    : out.acceptanceState === 'approved' ? `, approved by ${approver ?? ''}` : '';
  return `accepted as unaccounted by ${out.acceptedBy ?? ''}${state}: ${(out.accepted ?? []).join('; ')}`;
}
