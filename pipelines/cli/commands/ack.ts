import type { Command } from '../command.js';
import { UsageError } from '../../../src/errors.js';
import { optionsHelp, parseCommandArgs, requireExistingStore, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { runAck } from '../../ack.js';
import { terminalText } from '../../../src/report/safe-text.js';
import type { AckResult } from '../../../src/checks/index.js';

const KEYS = COMMAND_OPTIONS.ack;
/** The flags of recon ack beyond its settings (exported: a test parses the README's examples with them). */
export const ACK_FLAGS = {
  note: { type: 'string' }, withdraw: { type: 'boolean' }, approve: { type: 'boolean' },
} as const;

export const command: Command = {
  name: 'ack',
  usage: `Usage: recon ack <key> --note "why this is accepted" --by NAME [options]
       recon ack <key> --withdraw --note "why it no longer is" --by NAME [options]
       recon ack <key> --approve --by NAME [--note TEXT] [options]

The key is in the Key column of the workbook (or SELECT finding_key FROM open_exceptions).
An acknowledged finding stays out of "new" until its numbers change. Every acknowledgement and every
withdrawal is added to the finding's history (SELECT * FROM acknowledgements); nothing is overwritten.
The snapshot that recon sql reads is published again at once. While a run holds the store, the ack
waits for it up to --wait seconds, then exits 3. With --four-eyes, an acknowledgement of more money than its
currency's threshold waits for a second, different person's --approve (the finding stays open until then).
The history and the audit trail record the name given and the operating-system user and host.

  --note TEXT            required
  --withdraw             withdraw the finding's current acknowledgement, or one waiting for approval (it is open again)
  --approve              approve the acknowledgement waiting for a second person (not your own)
${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, positionals, extra } = parseCommandArgs(argv, KEYS, ACK_FLAGS);
    requireExistingStore(config);
    const key = positionals[0];
    if (!key) throw new UsageError('recon ack needs the finding key: recon ack <key> --note "…" --by NAME');
    if (positionals.length > 1) throw new UsageError(`recon ack takes one finding key, got ${positionals.length} (quote a note with spaces: --note "…")`);
    if (extra.withdraw === true && extra.approve === true) {
      throw new UsageError('--withdraw and --approve do not go together: one entry at a time');
    }
    const action = extra.withdraw === true ? 'withdraw' : extra.approve === true ? 'approve' : 'ack';
    const note = typeof extra.note === 'string' ? extra.note : '';
    if (action !== 'approve' && note.trim() === '') throw new UsageError('recon ack needs --note "…" saying why');
    // never silently the OS user (#27): an accountant's name is a statement, so it is given (the OS user is
    // recorded beside it)
    if (!config.ackBy) throw new UsageError('who acknowledges must be named: pass --by NAME, or set RECON_ACK_BY (or "ackBy" in the --config file)');
    const out = await runAck(config, openTerminal(config).logger, { key, note, by: config.ackBy, action, notice });
    const r = out.ack;
    if (r) process.stdout.write(terminalText(ackLine(r)) + '\n');
    if (out.published) process.stdout.write(`published: ${out.published}\n`);
    return out.code;
  },
};

/** What an acknowledgement did, in one line (stdout). */
function ackLine(r: AckResult): string {
  const what = `${r.checkId}${r.disbursementId ? `, ${r.disbursementId}` : ''}${r.subject ? `, ${r.subject}` : ''}`;
  const entries = `${r.history.length} entr${r.history.length === 1 ? 'y' : 'ies'} in its history`;
  if (r.pending) {
    return `acknowledgement of ${r.key} (${what}) by ${r.ackBy} recorded, PENDING: `
      + `${r.pending.stake} at stake is above the four-eyes limit of ${r.pending.limit}; `
      + 'the finding stays open until a second person approves it '
      + `(recon ack ${r.key} --approve --by NAME); ${entries}`;
  }
  if (r.action === 'approve') {
    return `approved the acknowledgement of ${r.key} (${what}) by ${r.approvedFor ?? ''}: `
      + `approved by ${r.ackBy}; ${entries}`;
  }
  const did = r.action === 'ack' ? 'acknowledged' : 'withdrew the acknowledgement of';
  return `${did} ${r.key} (${what}) by ${r.ackBy}; ${entries}`;
}
