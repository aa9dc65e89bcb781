// A statement file in any of the formats banks send, told apart by content (never by file name alone).
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isCamt053, parseCamt053 } from './camt053.js';
import { csvLayoutOf, parseCsvStatement } from './csv.js';
import { isMt940, parseMt940 } from './mt940.js';
import { StatementError, type Statement } from './statement.js';

/** Largest statement file read (a year of a busy account is a few MB). */
export const MAX_STATEMENT_BYTES = 64 * 1024 * 1024;

export function parseStatementText(name: string, content: string): Statement[] {
  if (content.includes('\u0000')) throw new StatementError(name, 'byte 1', 'binary content, not a statement');
  if (isCamt053(content)) return parseCamt053(name, content);
  if (isMt940(content)) return parseMt940(name, content);
  const layout = csvLayoutOf(content);
  if (layout) return parseCsvStatement(name, content, layout);
  throw new StatementError(name, 'line 1', 'neither camt.053 XML, MT940 nor a CSV export with a known header (src/bank/layouts.json)');
}

export async function readStatementFile(file: string): Promise<Statement[]> {
  const name = path.basename(file);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new StatementError(name, 'file', 'not a readable file');
  if (info.size > MAX_STATEMENT_BYTES) throw new StatementError(name, 'file', `${info.size} bytes, over the ${MAX_STATEMENT_BYTES}-byte limit`);
  return parseStatementText(name, (await readFile(file)).toString('utf8'));
}
