// Importing statements into the store: every file read and checked first (readStatements: one bad file
// refuses the import, nothing half-imported), then all entries in one transaction (storeStatements), each
// added only when its identity (account_key, entry_key; identity.ts) is not in the store yet. A row
// imported before migration 021 has no keys: an entry with its old identity and the same date, amount and
// direction is that row (its keys are filled in), never a new one.
import path from 'node:path';
import { readdir, realpath, stat } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { storeBankEntries, type BankEntryRow, type BankStatementRow } from '../store/bank.js';
import { factsOf } from './period.js';
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

interface ReadFile {
  file: string;
  statements: IdentifiedStatement[];
}

/** A file of --bank-dir left out, and why (a symbolic link leading out of the folder, or nowhere). */
interface SkippedFile {
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
      skipped.push({
        name: e.name,
        reason: 'a symbolic link to a file outside the folder: skipped (copy the statement into the folder)',
      });
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

export async function storeStatements(
  c: DuckDBConnection,
  read: readonly ReadFile[],
  runId: string,
  secrets: readonly string[] = [],
): Promise<BankImportResult> {
  const clean = (t: string | null) => (t === null ? null : redact(t, secrets));
  const rows = read.flatMap(({ file, statements }) =>
    statements.flatMap((s) =>
      s.entries.map((e): BankEntryRow => [
        s.statementId,
        e.entryKey,
        s.format,
        maskAccount(e.account),
        tail(e.account),
        e.bookingDate,
        e.valueDate,
        e.amount,
        e.currency,
        e.direction,
        clean(e.endToEndId),
        clean(e.remittance),
        clean(e.counterparty),
        clean(e.raw),
        path.basename(file),
        s.accountKey,
        e.entryKey,
        e.batch ? clean(e.batch.join(' | ')) : null,
        e.batch ? e.batch.length : null,
        e.legacy?.statementId ?? null,
        e.legacy?.entryRef ?? null,
      ]),
    ),
  );
  const added = await storeBankEntries(c, rows, runId, statementRows(read));
  return {
    files: read.length,
    statements: read.reduce((n, r) => n + r.statements.length, 0),
    entries: rows.length,
    added,
  };
}

/**
 * Each statement's period, balances and proof (period.ts); a statement without a day or a currency (no
 * entries, no balances) has no period to record.
 */
function statementRows(read: readonly ReadFile[]): BankStatementRow[] {
  return read.flatMap(({ file, statements }) => statements.flatMap((s): BankStatementRow[] => {
    const f = factsOf(s);
    if (!f.currency || !f.periodFrom || !f.periodTo) return [];
    return [
      [
        s.statementId,
        s.accountKey,
        maskAccount(s.account),
        tail(s.account),
        f.currency,
        s.format,
        path.basename(file),
        f.periodFrom,
        f.periodTo,
        f.opening?.amount ?? null,
        f.opening?.date ?? null,
        f.closing?.amount ?? null,
        f.closing?.date ?? null,
        String(f.credits),
        String(f.debits),
        f.entries,
        f.proof,
        f.difference,
      ],
    ];
  }));
}

export async function importStatements(
  c: DuckDBConnection,
  files: readonly string[],
  runId: string,
  secrets: readonly string[] = [],
): Promise<BankImportResult> {
  return storeStatements(c, await readStatements(files), runId, secrets);
}

/** What recon noticed reading the files (lines skipped, quirks), for the log. */
export const notesOf = (read: readonly ReadFile[]) =>
  read.flatMap(({ file, statements }) =>
    statements.flatMap((s) => (s.notes ?? []).map((note) => ({ file: path.basename(file), note }))),
  );
