// The bank leg of a run: the matching settings recorded for the views (the business-day window, the
// bank-charge tolerance), and the statements of --bank-dir imported before the checks. In a run, a
// statement file that cannot be read is refused on its own, whatever went wrong reading it (logged,
// returned for the command to name, and recorded in bank_refusals for the workbook's Bank sheet), and the
// others are imported: one bad file never loses the night. `recon bank import` refuses the whole import.
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from 'pino';
import { notesOf, readStatements, statementFilesIn, storeStatements, type BankImportResult } from './import.js';
import { StatementError, printable } from './statement.js';
import { DEFAULT_FEE_TOLERANCE, parseFeeTolerance } from './fees.js';
import { recordBankRefusal, setBankSettings } from '../store/bank.js';
import type { Secrets } from '../api/redact.js';

/** What the bank leg needs to know. */
export interface BankSettings {
  /** Folder of statements imported by every run (--bank-dir), or none. */
  bankDir: string | null;
  /** Business days after delivery a credit may arrive (--bank-window-days). */
  windowDays: number;
  /** A credit short by at most this is a bank charge (--bank-fee-tolerance). */
  feeTolerance: string;
  /** Never stored (the API key, should a statement echo it). */
  secrets: Secrets;
}

export interface BankStepResult extends BankImportResult {
  /** One line per file refused or skipped: "name: where: why". */
  refused: string[];
}

/** The bank settings the views read, from the run's. */
export async function applyBankSettings(
  c: DuckDBConnection,
  settings: Pick<BankSettings, 'windowDays' | 'feeTolerance'>,
): Promise<void> {
  const limits = parseFeeTolerance(settings.feeTolerance) ?? parseFeeTolerance(DEFAULT_FEE_TOLERANCE)!;
  await setBankSettings(c, settings.windowDays, limits);
}

export async function bankStage(
  c: DuckDBConnection,
  settings: BankSettings,
  runId: string,
  logger: Logger,
): Promise<BankStepResult | null> {
  await applyBankSettings(c, settings);
  if (!settings.bankDir) return null;
  const out: BankStepResult = { files: 0, statements: 0, entries: 0, added: 0, refused: [] };
  const refuse = async (file: string, reason: string) => {
    out.refused.push(reason);
    logger.warn({ file, reason }, 'bank statement refused');
    await recordBankRefusal(c, runId, file, reason);
  };
  const { files, skipped } = await statementFilesIn(settings.bankDir);
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
    const r = await storeStatements(c, read, runId, settings.secrets);
    out.files += r.files;
    out.statements += r.statements;
    out.entries += r.entries;
    out.added += r.added;
  }
  logger.info({ ...out, refused: out.refused.length }, 'bank statements imported');
  return out;
}
