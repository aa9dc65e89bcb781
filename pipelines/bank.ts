// The bank leg of a run: the business-day window recorded for the matching views, and the statements of
// --bank-dir imported before the checks. In a run, a statement file that cannot be read is refused on its
// own (logged, and named on stderr by the caller) and the others are imported: one bad file does not lose
// the night. `recon bank import` refuses the whole import instead.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from 'pino';
import type { Config } from '../src/config.js';
import { importStatements, statementFilesIn, type BankImportResult } from '../src/bank/import.js';
import { StatementError } from '../src/bank/statement.js';

export async function setBankWindow(c: DuckDBConnection, days: number): Promise<void> {
  await c.run('UPDATE bank_settings SET window_business_days = $1', [days]);
}

export interface BankStepResult extends BankImportResult {
  refused: string[];
}

export async function bankStep(c: DuckDBConnection, config: Config, runId: string, logger: Logger): Promise<BankStepResult | null> {
  await setBankWindow(c, config.bankWindowDays);
  if (!config.bankDir) return null;
  const out: BankStepResult = { files: 0, statements: 0, entries: 0, added: 0, refused: [] };
  for (const file of await statementFilesIn(config.bankDir)) {
    try {
      const r = await importStatements(c, [file], runId, [config.apiKey ?? '']);
      out.files += r.files;
      out.statements += r.statements;
      out.entries += r.entries;
      out.added += r.added;
    } catch (err) {
      if (!(err instanceof StatementError)) throw err;
      out.refused.push(err.message);
      logger.warn({ file, reason: err.message }, 'bank statement refused');
    }
  }
  logger.info({ ...out, refused: out.refused.length }, 'bank statements imported');
  return out;
}
