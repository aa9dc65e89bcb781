// Importing statements into the store: every file read and checked first (one bad file refuses the whole
// import: nothing half-imported), then all entries in one transaction, each added only when its
// (statement_id, entry_ref) is not already there.
import path from 'node:path';
import { readdir } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { appendRows } from '../load/append.js';
import { inTransaction } from '../load/transaction.js';
import { redact } from '../api/redact.js';
import { readStatementFile } from './parse.js';
import { maskAccount, type Statement } from './statement.js';

export interface BankImportResult {
  files: number;
  statements: number;
  entries: number;
  /** Entries not already in the store. */
  added: number;
}

/** The statement files of a folder (--bank-dir): every regular file but hidden ones, in name order. */
export async function statementFilesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => path.join(dir, e.name)).sort();
}

const tail = (account: string): string | null => {
  const digits = account.replace(/\D/g, '');
  return digits.length >= 4 ? digits.slice(-4) : null;
};

export async function importStatements(c: DuckDBConnection, files: readonly string[], runId: string, secrets: readonly string[] = []): Promise<BankImportResult> {
  const read: Array<{ file: string; statements: Statement[] }> = [];
  for (const file of files) read.push({ file, statements: await readStatementFile(file) });
  const clean = (t: string | null) => (t === null ? null : redact(t, secrets));
  const rows = read.flatMap(({ file, statements }) => statements.flatMap((s) => s.entries.map((e) => [
    s.statementId, e.entryRef, s.format, maskAccount(e.account), tail(e.account), e.bookingDate, e.valueDate, e.amount, e.currency, e.direction,
    clean(e.endToEndId), clean(e.remittance), clean(e.counterparty), clean(e.raw), path.basename(file),
  ])));
  const added = await inTransaction(c, async () => {
    await c.run(`CREATE OR REPLACE TEMP TABLE _bank (statement_id VARCHAR, entry_ref VARCHAR, format VARCHAR, account VARCHAR, account_tail VARCHAR,
      booking_date VARCHAR, value_date VARCHAR, amount BIGINT, currency VARCHAR, direction VARCHAR, end_to_end_id VARCHAR, remittance VARCHAR,
      counterparty VARCHAR, raw VARCHAR, file_name VARCHAR)`);
    await appendRows(c, '_bank', ['varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'bigint', 'varchar', 'varchar',
      'varchar', 'varchar', 'varchar', 'varchar', 'varchar'], rows);
    const result = await c.run(
      `INSERT INTO bank_transactions
       SELECT DISTINCT ON (statement_id, entry_ref) statement_id, entry_ref, format, account, account_tail, CAST(booking_date AS DATE), CAST(value_date AS DATE),
              amount, currency, direction, end_to_end_id, remittance, counterparty, raw, file_name, $1, now()
       FROM _bank AS b
       WHERE NOT EXISTS (SELECT 1 FROM bank_transactions AS t WHERE t.statement_id = b.statement_id AND t.entry_ref = b.entry_ref)`,
      [runId],
    );
    await c.run('DROP TABLE _bank');
    return result.rowsChanged;
  });
  return { files: files.length, statements: read.reduce((n, r) => n + r.statements.length, 0), entries: rows.length, added };
}
