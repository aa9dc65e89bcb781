// What the bank leg writes: statement entries (each added only when its identity is not in the store yet),
// the matching settings the bank views read, and the files a run refused.
import type { DuckDBConnection } from '@duckdb/node-api';
import { appendRows, type ColumnKind } from './append.js';
import { sqlText } from './sql.js';
import { inTransaction } from './transaction.js';

/** One entry as the import stages it (sql/bank/stage_entries.sql: the columns in this order). */
export type BankEntryRow = [
  statementId: string,
  entryRef: string,
  format: string,
  account: string,
  accountTail: string | null,
  bookingDate: string | null,
  valueDate: string | null,
  amount: bigint,
  currency: string,
  direction: string,
  endToEndId: string | null,
  remittance: string | null,
  counterparty: string | null,
  raw: string | null,
  fileName: string,
  accountKey: string,
  entryKey: string,
  batchRefs: string | null,
  batchCount: number | null,
  legacyStatementId: string | null,
  legacyEntryRef: string | null,
];

const KINDS: ColumnKind[] = [
  'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'bigint', 'varchar', 'varchar',
  'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'integer', 'varchar',
  'varchar',
];

/**
 * One statement as the import records it (sql/bank/insert_statement.sql: the parameters in this order, less the run
 * id).
 */
export type BankStatementRow = [
  statementId: string,
  accountKey: string,
  account: string,
  accountTail: string | null,
  currency: string,
  format: string,
  fileName: string,
  periodFrom: string,
  periodTo: string,
  openingBalance: bigint | null,
  openingDate: string | null,
  closingBalance: bigint | null,
  closingDate: string | null,
  credits: string,
  debits: string,
  entryCount: number,
  balanceProof: string,
  proofDifference: bigint | null,
];

/**
 * Adds the entries not in the store yet and the statements they came from (each once: the same statement
 * imported again adds nothing), in one transaction; returns how many entries were added.
 */
export async function storeBankEntries(c: DuckDBConnection, rows: readonly BankEntryRow[], runId: string,
  statements: readonly BankStatementRow[] = []): Promise<number> {
  return inTransaction(c, async () => {
    for (const s of statements) await c.run(sqlText('bank/insert_statement'), [...s, runId]);
    await c.run(sqlText('bank/stage_entries'));
    await appendRows(c, '_bank', KINDS, rows);
    // rows of a store migrated by 021: recognised by their old identity and what they say, and given their keys
    await c.run(sqlText('bank/adopt_legacy_rows'));
    const result = await c.run(sqlText('bank/insert_entries'), [runId]);
    await c.run('DROP TABLE _bank');
    return result.rowsChanged;
  });
}

/** The matching settings of the bank views: the business-day window and the bank-charge tolerance. */
export async function setBankSettings(
  c: DuckDBConnection,
  windowDays: number,
  tolerance: ReadonlyArray<{ currency: string; maxFeeMajor: string; maxPercent: string }>,
): Promise<void> {
  await inTransaction(c, async () => {
    await c.run('UPDATE bank_settings SET window_business_days = $1', [windowDays]);
    await c.run('DELETE FROM bank_fee_tolerance');
    for (const l of tolerance) {
      await c.run('INSERT INTO bank_fee_tolerance VALUES ($1, CAST($2 AS DECIMAL(18, 3)), CAST($3 AS DECIMAL(9, 4)))', [
        l.currency,
        l.maxFeeMajor,
        l.maxPercent,
      ]);
    }
  });
}

/** A statement file a run's --bank-dir refused or skipped, for the Bank sheet. */
export async function recordBankRefusal(
  c: DuckDBConnection,
  runId: string,
  file: string,
  reason: string,
): Promise<void> {
  await c.run('INSERT INTO bank_refusals VALUES ($1, $2, $3, now())', [runId, file, reason]);
}
