// `recon bank import FILE…`: bank statements (camt.053, MT940, BAI2, CSV exports) into the store. Every
// file is read and checked first, before the store is touched; one malformed file refuses the whole
// import (exit 2, the file and the line or element named), nothing half-imported. Importing the same
// statement again adds nothing. On first use the store is created (a new user imports the statements
// they already have before the first night).
import type { Command } from '../command.js';
import { UsageError } from '../../../src/errors.js';
import { optionsHelp, parseCommandArgs, COMMAND_OPTIONS } from '../../config.js';
import { openTerminal } from '../progress.js';
import { notice } from '../notice.js';
import { runBankImport } from '../../bank-import.js';

const KEYS = COMMAND_OPTIONS.bank;

export const command: Command = {
  name: 'bank',
  usage: `Usage: recon bank import FILE… [options]

Imports bank statements into the store's bank_transactions table: ISO 20022 camt.053 (XML), SWIFT MT940
in the dialects banks write, BAI2, and CSV exports whose header matches a layout of src/bank/layouts.json.
The format is told from the content. A file that cannot be read refuses the whole import (nothing is
imported); a statement imported twice, or an export overlapping one imported before, adds nothing. A
store that does not exist yet is created. The next \`recon check\` / \`recon run\` matches the credits to
disbursements. Every run can import a folder itself: --bank-dir / RECON_BANK_DIR.

${optionsHelp(KEYS)}`,
  async run(argv) {
    const { config, positionals } = parseCommandArgs(argv, KEYS, {});
    const [verb, ...files] = positionals;
    if (verb !== 'import')
      throw new UsageError(`recon bank needs a verb: recon bank import FILE…${verb ? ` (got '${verb}')` : ''}`);
    if (files.length === 0) throw new UsageError('recon bank import needs at least one statement file');
    const out = await runBankImport(config, openTerminal(config).logger, files, { notice });
    const r = out.result;
    if (r)
      process.stdout.write(
        `${r.files} file(s), ${r.statements} statement(s), ${r.entries} entries: ${r.added} added, ` +
          `${r.entries - r.added} already imported\n`,
      );
    return out.code;
  },
};
