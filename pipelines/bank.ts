// The bank leg of a run: the matching settings recorded for the views (the business-day window, the
// bank-charge tolerance), and the statements of --bank-dir imported before the checks. In a run, a
// statement file that cannot be read is refused on its own, whatever went wrong reading it (logged,
// named on stderr by the caller and recorded in bank_refusals for the workbook's Bank sheet), and the
// others are imported: one bad file never loses the night. `recon bank import` refuses the whole import.
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from 'pino';
import type { Config } from '../src/config.js';
import { notesOf, readStatements, statementFilesIn, storeStatements, type BankImportResult } from '../src/bank/import.js';
import { StatementError, printable } from '../src/bank/statement.js';
import { DEFAULT_FEE_TOLERANCE, parseFeeTolerance } from '../src/bank/fees.js';
import { inTransaction } from '../src/load/transaction.js';

export async function setBankSettings(c: DuckDBConnection, settings: { windowDays: number; feeTolerance: string }): Promise<void> {
  const limits = parseFeeTolerance(settings.feeTolerance) ?? parseFeeTolerance(DEFAULT_FEE_TOLERANCE)!;
  await inTransaction(c, async () => {
    await c.run('UPDATE bank_settings SET window_business_days = $1', [settings.windowDays]);
    await c.run('DELETE FROM bank_fee_tolerance');
    for (const l of limits) {
      await c.run('INSERT INTO bank_fee_tolerance VALUES ($1, CAST($2 AS DECIMAL(18, 3)), CAST($3 AS DECIMAL(9, 4)))', [l.currency, l.maxFeeMajor, l.maxPercent]);
    }
  });
}

export interface BankStepResult extends BankImportResult {
  /** One line per file refused or skipped: "name: where: why". */
  refused: string[];
}

export async function bankStep(c: DuckDBConnection, config: Config, runId: string, logger: Logger): Promise<BankStepResult | null> {
  await setBankSettings(c, { windowDays: config.bankWindowDays, feeTolerance: config.bankFeeTolerance });
  if (!config.bankDir) return null;
  const out: BankStepResult = { files: 0, statements: 0, entries: 0, added: 0, refused: [] };
  const refuse = async (file: string, reason: string) => {
    out.refused.push(reason);
    logger.warn({ file, reason }, 'bank statement refused');
    await c.run('INSERT INTO bank_refusals VALUES ($1, $2, $3, now())', [runId, file, reason]);
  };
  const { files, skipped } = await statementFilesIn(config.bankDir);
  for (const s of skipped) await refuse(s.name, printable(`${s.name}: ${s.reason}`));
  for (const file of files) {
    let read;
    try {
      read = await readStatements([file]);
    } catch (err) {
      if (!(err instanceof StatementError)) throw err; // readStatementFile turns every reading failure into one
      await refuse(path.basename(file), err.message);
      continue;
    }
    for (const n of notesOf(read)) logger.info(n, 'bank statement read');
    const r = await storeStatements(c, read, runId, [config.apiKey ?? '']);
    out.files += r.files;
    out.statements += r.statements;
    out.entries += r.entries;
    out.added += r.added;
  }
  logger.info({ ...out, refused: out.refused.length }, 'bank statements imported');
  return out;
}
