// recon bank import FILE…: every file read and checked first, before the store is touched (one that
// cannot be read refuses the import); then the entries not yet in the store, and the snapshot published.
// On first use the store is created (a new user imports the statements they already have).
import type { Logger } from 'pino';
import { EXIT, type ExitCode } from '../src/errors.js';
import type { Config } from './config.js';
import { notesOf, readStatements, storeStatements, type BankImportResult } from '../src/bank/import.js';
import { StatementError } from '../src/bank/statement.js';
import { republish, withRun, type Notices } from './run.js';
import { bankSettings, runSettings, layoutOf } from './settings.js';

interface BankImportOutcome {
  code: ExitCode;
  result: BankImportResult | null;
}

export async function runBankImport(
  config: Config,
  logger: Logger,
  files: readonly string[],
  opts: Notices = {},
): Promise<BankImportOutcome> {
  const { secrets } = bankSettings(config);
  const { published } = layoutOf(config);
  const out: BankImportOutcome = { code: EXIT.FAILED, result: null };
  let read;
  try {
    read = await readStatements(files);
  } catch (err) {
    if (!(err instanceof StatementError)) throw err;
    logger.error({ err: err.message }, 'recon bank import refused');
    opts.notice?.(`recon bank: ${err.message}`);
    return out;
  }
  for (const n of notesOf(read)) logger.info(n, 'bank statement read');
  out.code = await withRun(
    'bank',
    runSettings(config),
    logger,
    async (ctx) => {
      out.result = await storeStatements(ctx.store.connection, read, ctx.runId, secrets);
      return EXIT.OK;
    },
    {
      notice: opts.notice,
      afterSuccess: republish(published),
    },
  );
  return out;
}
