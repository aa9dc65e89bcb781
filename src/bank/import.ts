// Importing statements into the store: every file read and checked first (readStatements: one bad file
// refuses the import, nothing half-imported), then all entries in one transaction (storeStatements), each
// added only when its identity (account_key, entry_key; identity.ts) is not in the store yet. A row
// imported before migration 021 has no keys: an entry with its old identity and the same date, amount and
// direction is that row (its keys are filled in), never a new one.
import path from 'node:path';
import { readdir, realpath, stat } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { appendRows } from '../load/append.js';
import { inTransaction } from '../load/transaction.js';
import { redact } from '../api/redact.js';
import { readStatementFile } from './parse.js';
import type { IdentifiedStatement } from './identity.js';
import { maskAccount } from './statement.js';

export interface BankImportResult {
  files: number;
  statements: number;
  entries: number;
  /** Entries not already in the store. */
  added: number;
}

export interface ReadFile {
  file: string;
  statements: IdentifiedStatement[];
}

/** A file of --bank-dir left out, and why (a symbolic link leading out of the folder, or nowhere). */
export interface SkippedFile {
  name: string;
  reason: string;
}

/**
 * The statement files of a folder (--bank-dir): every regular file but hidden ones, in name order, and
 * symbolic links to a file inside the folder; a link leading outside it (or nowhere) is skipped and named.
 */
export async function statementFilesIn(dir: string): Promise<{ files: string[]; skipped: SkippedFile[] }> {
  const root = await realpath(dir);
  const files: string[] = [];
  const skipped: SkippedFile[] = [];
  for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith('.')) continue;
    const file = path.join(dir, e.name);
    if (e.isFile()) files.push(file);
    if (!e.isSymbolicLink()) continue;
    const target = await realpath(file).catch(() => null);
    const info = target ? await stat(target).catch(() => null) : null;
    if (!target || !info) skipped.push({ name: e.name, reason: 'a symbolic link to nothing: skipped' });
    else if (path.relative(root, target).startsWith('..') || path.isAbsolute(path.relative(root, target))) {
      skipped.push({ name: e.name, reason: 'a symbolic link to a file outside the folder: skipped (copy the statement into the folder)' });
    } else if (info.isFile()) files.push(file);
  }
  return { files, skipped };
}

/** Reads and checks every file; the first that cannot be read refuses them all (StatementError). */
export async function readStatements(files: readonly string[]): Promise<ReadFile[]> {
  const read: ReadFile[] = [];
  for (const file of files) read.push({ file, statements: await readStatementFile(file) });
  return read;
}

const tail = (account: string): string | null => {
  const digits = account.replace(/\D/g, '');
  return digits.length >= 4 ? digits.slice(-4) : null;
};

const COLUMNS = ['statement_id', 'entry_ref', 'format', 'account', 'account_tail', 'booking_date', 'value_date', 'amount', 'currency', 'direction',
  'end_to_end_id', 'remittance', 'counterparty', 'raw', 'file_name', 'account_key', 'entry_key', 'batch_refs', 'batch_count'] as const;

export async function storeStatements(c: DuckDBConnection, read: readonly ReadFile[], runId: string, secrets: readonly string[] = []): Promise<BankImportResult> {
  const clean = (t: string | null) => (t === null ? null : redact(t, secrets));
  const rows = read.flatMap(({ file, statements }) => statements.flatMap((s) => s.entries.map((e) => [
    s.statementId, e.entryKey, s.format, maskAccount(e.account), tail(e.account), e.bookingDate, e.valueDate, e.amount, e.currency, e.direction,
    clean(e.endToEndId), clean(e.remittance), clean(e.counterparty), clean(e.raw), path.basename(file), s.accountKey, e.entryKey,
    e.batch ? clean(e.batch.join(' | ')) : null, e.batch ? e.batch.length : null, e.legacy?.statementId ?? null, e.legacy?.entryRef ?? null,
  ])));
  const added = await inTransaction(c, async () => {
    await c.run(`CREATE OR REPLACE TEMP TABLE _bank (statement_id VARCHAR, entry_ref VARCHAR, format VARCHAR, account VARCHAR, account_tail VARCHAR,
      booking_date VARCHAR, value_date VARCHAR, amount BIGINT, currency VARCHAR, direction VARCHAR, end_to_end_id VARCHAR, remittance VARCHAR,
      counterparty VARCHAR, raw VARCHAR, file_name VARCHAR, account_key VARCHAR, entry_key VARCHAR, batch_refs VARCHAR, batch_count INTEGER,
      legacy_statement_id VARCHAR, legacy_entry_ref VARCHAR)`);
    await appendRows(c, '_bank', ['varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'bigint', 'varchar', 'varchar',
      'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'varchar', 'integer', 'varchar', 'varchar'], rows);
    // rows of a store migrated by 021: recognised by their old identity and what they say, and given their keys
    await c.run(
      `UPDATE bank_transactions AS t SET account_key = b.account_key, entry_key = b.entry_key
       FROM _bank AS b
       WHERE t.account_key IS NULL AND t.statement_id = b.legacy_statement_id AND t.entry_ref = b.legacy_entry_ref
         AND t.amount = b.amount AND t.currency = b.currency AND t.direction = b.direction
         AND t.account = b.account AND t.account_tail IS NOT DISTINCT FROM b.account_tail
         AND t.value_date IS NOT DISTINCT FROM CAST(b.value_date AS DATE) AND t.booking_date IS NOT DISTINCT FROM CAST(b.booking_date AS DATE)`,
    );
    const result = await c.run(
      `INSERT INTO bank_transactions (${COLUMNS.join(', ')}, run_id, imported_at)
       SELECT DISTINCT ON (account_key, entry_key) statement_id, entry_ref, format, account, account_tail, CAST(booking_date AS DATE),
              CAST(value_date AS DATE), amount, currency, direction, end_to_end_id, remittance, counterparty, raw, file_name, account_key,
              entry_key, batch_refs, batch_count, $1, now()
       FROM _bank AS b
       WHERE NOT EXISTS (SELECT 1 FROM bank_transactions AS t WHERE t.account_key = b.account_key AND t.entry_key = b.entry_key)`,
      [runId],
    );
    await c.run('DROP TABLE _bank');
    return result.rowsChanged;
  });
  return { files: read.length, statements: read.reduce((n, r) => n + r.statements.length, 0), entries: rows.length, added };
}

export async function importStatements(c: DuckDBConnection, files: readonly string[], runId: string, secrets: readonly string[] = []): Promise<BankImportResult> {
  return storeStatements(c, await readStatements(files), runId, secrets);
}

/** What recon noticed reading the files (lines skipped, quirks), for the log. */
export const notesOf = (read: readonly ReadFile[]) =>
  read.flatMap(({ file, statements }) => statements.flatMap((s) => (s.notes ?? []).map((note) => ({ file: path.basename(file), note }))));
