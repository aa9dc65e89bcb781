import { userInfo } from 'node:os';
import type { Command } from '../command.js';
import { UsageError } from '../../errors.js';
import { optionsHelp, parseCommandArgs, requireExistingStore, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { runAck } from '../../../pipelines/ack.js';

const KEYS = COMMAND_OPTIONS.ack;

export const command: Command = {
  name: 'ack',
  usage: `Usage: recon ack <key> --note "why this is accepted" [--by NAME] [options]\n\nThe key is in the Key column of the workbook (or SELECT finding_key FROM open_exceptions).\nAn acknowledged finding stays out of "new" until its numbers change; the snapshot that recon sql\nreads is published again at once.\n\n  --note TEXT            required\n  --by NAME              who acknowledges (default: the OS user)\n${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, positionals, extra } = parseCommandArgs(argv, KEYS, { note: { type: 'string' }, by: { type: 'string' } });
    requireExistingStore(config);
    const key = positionals[0];
    if (!key) throw new UsageError('recon ack needs the finding key: recon ack <key> --note "…"');
    if (typeof extra.note !== 'string' || extra.note.trim() === '') throw new UsageError('recon ack needs --note "…" saying why the finding is accepted');
    const by = typeof extra.by === 'string' ? extra.by : userInfo().username;
    const out = await runAck(config, openTerminal(config).logger, { key, note: extra.note as string, by, notice });
    const r = out.ack;
    if (r) process.stdout.write(`acknowledged ${r.key} (${r.checkId}${r.disbursementId ? `, ${r.disbursementId}` : ''}${r.subject ? `, ${r.subject}` : ''}) by ${r.ackBy}\n`);
    if (out.published) process.stdout.write(`published: ${out.published}\n`);
    return out.code;
  },
};
