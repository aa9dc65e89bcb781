import type { Command } from '../command.js';
import { UsageError } from '../../../src/errors.js';
import { optionsHelp, parseCommandArgs, requireExistingStore, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { runAssign } from '../../assign.js';
import { terminalText } from '../../../src/report/safe-text.js';
import { isCalendarDate } from '../../../src/month.js';

const KEYS = COMMAND_OPTIONS.assign;
const FLAGS = { to: { type: 'string' }, due: { type: 'string' }, note: { type: 'string' } } as const;
const MAX_NAME = 100;
const MAX_NOTE = 1000;

export const command: Command = {
  name: 'assign',
  usage: `Usage: recon assign <key> --to NAME [--due YYYY-MM-DD] [--note TEXT] --by NAME [options]

Gives a finding (the Key column of the workbook) an owner and, with --due, a date by which it is dealt with.
The Exceptions sheet and the open_exceptions view show the owner, the due date and whether it is overdue;
a finding nobody was assigned shows the owner of the configured rules (--default-owners). Every assignment is
kept (SELECT * FROM finding_assignments) and recorded in the audit trail with who made it, the
operating-system user and the host. An assignment states the owner and the due date together: without
--due the finding has none.

  --to NAME              who owns the finding from now on
  --due YYYY-MM-DD       the day it is due (overdue from the day after)
  --note TEXT            why (optional)
${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, positionals, extra } = parseCommandArgs(argv, KEYS, FLAGS);
    requireExistingStore(config);
    const key = positionals[0];
    if (!key) {
      throw new UsageError('recon assign needs the finding key: recon assign <key> --to NAME [--due YYYY-MM-DD]', true);
    }
    if (positionals.length > 1) {
      throw new UsageError(`recon assign takes one finding key, got ${positionals.length} `
        + '(quote a note with spaces: --note "…")');
    }
    const to = typeof extra.to === 'string' ? extra.to.trim() : '';
    if (to === '') throw new UsageError('recon assign needs --to NAME: who owns the finding', true);
    const due = typeof extra.due === 'string' ? extra.due.trim() : null;
    if (due !== null && !isCalendarDate(due)) {
      throw new UsageError(`--due must be a date YYYY-MM-DD that exists, e.g. 2026-12-15, got '${due.slice(0, 40)}'`);
    }
    const note = typeof extra.note === 'string' ? extra.note.trim() : null;
    if (to.length > MAX_NAME) throw new UsageError(`--to: at most ${MAX_NAME} characters`);
    if ((note ?? '').length > MAX_NOTE) throw new UsageError(`--note: at most ${MAX_NOTE} characters`);
    if (/[\u0000-\u001f\u007f]/.test(to + (note ?? ''))) throw new UsageError('--to and --note: no control characters');
    if (!config.ackBy) {
      throw new UsageError('who assigns must be named: pass --by NAME, or set RECON_ACK_BY '
        + '(or "ackBy" in the --config file)');
    }
    const out = await runAssign(config, openTerminal(config).logger, { key, to, due, note, by: config.ackBy, notice });
    const a = out.assigned;
    if (a) {
      const what = `${a.checkId}${a.disbursementId ? `, ${a.disbursementId}` : ''}`;
      const due = a.due ? `, due ${a.due}` : ', no due date';
      const was = a.previousOwner && a.previousOwner !== a.owner ? ` (was ${a.previousOwner})` : '';
      const line = `assigned ${a.key} (${what}) to ${a.owner}${due} by ${config.ackBy}${was}`;
      process.stdout.write(terminalText(line) + '\n');
    }
    if (out.published) process.stdout.write(`published: ${out.published}\n`);
    return out.code;
  },
};
