import type { Command } from '../command.js';
import { UsageError } from '../../../src/errors.js';
import { optionsHelp, parseCommandArgs, COMMAND_OPTIONS } from '../../config.js';
import { runVerify } from '../../verify.js';
import { terminalText } from '../../../src/report/safe-text.js';

const KEYS = COMMAND_OPTIONS.verify;
/** Differences printed after the first; the rest are counted. */
const SHOWN = 10;

export const command: Command = {
  name: 'verify',
  usage: `Usage: recon verify [--head HASH] [options]

Recomputes the audit trail (SELECT * FROM audit_trail) from its first entry — each entry's SHA-256 over its
own fields and the previous entry's hash — and compares the store with it: every run, acknowledgement,
withdrawal, approval, assignment and close as recorded, and every finding's state. Reads the store
(read-only) and writes nothing; --db may name a published snapshot too.

  --head HASH            also require an entry with this hash (the one a close workbook or evidence pack printed)

Exit codes: 0 intact; 1 something differs (the first entry or row that differs is named); 2 misused;
3 another recon process has the store open.
${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, positionals, extra } = parseCommandArgs(argv, KEYS, { head: { type: 'string' } });
    if (positionals.length > 0) {
      throw new UsageError(`recon verify takes no arguments, got ${positionals.length}`, true);
    }
    const head = typeof extra.head === 'string' ? extra.head.trim().toLowerCase() : null;
    if (head !== null && !/^[0-9a-f]{64}$/.test(head)) {
      throw new UsageError('--head must be the 64 hexadecimal digits of an entry\'s hash, as printed on a close');
    }
    const out = await runVerify(config, { expectHash: head });
    if (out.error) {
      process.stderr.write(`recon verify: ${out.error}\n`);
      return out.code;
    }
    const r = out.result!;
    if (r.differences.length === 0) {
      process.stdout.write(`audit trail intact: ${r.entries} entries, head entry ${r.head.seq} ${r.head.hash}; `
        + 'runs, acknowledgements, assignments, closes and findings agree with it'
        + `${head ? `; entry with hash ${head} present` : ''}\n`);
      return out.code;
    }
    const [first, ...rest] = r.differences;
    process.stdout.write(terminalText(`audit trail broken: ${first!.what}`) + '\n');
    for (const d of rest.slice(0, SHOWN)) process.stdout.write(terminalText(`  also: ${d.what}`) + '\n');
    if (rest.length > SHOWN) process.stdout.write(`  … and ${rest.length - SHOWN} more\n`);
    return out.code;
  },
};
