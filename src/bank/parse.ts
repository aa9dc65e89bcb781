// A statement file in any of the formats banks send, told apart by content (never by file name alone),
// decoded (decode.ts), parsed and identified (identity.ts). Anything a parser throws is the file's
// refusal (a StatementError naming the file), never an error of the run that reads it.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isBai2, parseBai2 } from './bai2.js';
import { isCamt, parseCamt053 } from './camt053.js';
import { csvLayoutOf, parseCsvStatement } from './csv.js';
import { decodeStatement } from './decode.js';
import { identify, type IdentifiedStatement } from './identity.js';
import { isMt940, parseMt940 } from './mt940.js';
import { StatementError, clip, type Statement } from './statement.js';

/** Largest statement file read (a year of a busy account is a few MB). */
const MAX_STATEMENT_BYTES = 64 * 1024 * 1024;

function parseText(name: string, content: string, latin1Line: number | null): Statement[] {
  const nul = content.indexOf('\u0000');
  if (nul >= 0)
    throw new StatementError(
      name,
      `line ${content.slice(0, nul).split('\n').length}`,
      'binary content, not a statement',
    );
  if (isCamt(content)) return parseCamt053(name, content);
  const notes = latin1Line === null ? [] : [`not UTF-8 (line ${latin1Line}): read as Windows-1252 (Latin-1)`];
  const withNotes = (statements: Statement[]) => (notes.length === 0 || statements.length === 0 ? statements
    : [{ ...statements[0]!, notes: [...notes, ...(statements[0]!.notes ?? [])] }, ...statements.slice(1)]);
  if (isMt940(content)) return withNotes(parseMt940(name, content));
  if (isBai2(content)) return withNotes(parseBai2(name, content));
  const layout = csvLayoutOf(content);
  if (layout) {
    if (latin1Line !== null && layout.encoding !== 'latin1') {
      throw new StatementError(
        name,
        `line ${latin1Line}`,
        `not UTF-8, and layout ${layout.id} does not say "encoding": "latin1" (src/bank/layouts.json)`,
      );
    }
    return parseCsvStatement(name, content, layout);
  }
  throw new StatementError(
    name,
    'line 1',
    'neither camt.053 XML, MT940, BAI2 nor a CSV export with a known header (src/bank/layouts.json)',
  );
}

/** Every statement of a text (tests, and what readStatementFile decodes), identified. */
export function parseStatementText(name: string, content: string): IdentifiedStatement[] {
  return identify(guarded(name, () => parseText(name, content, null)));
}

export function parseStatementBytes(name: string, bytes: Uint8Array): IdentifiedStatement[] {
  return identify(guarded(name, () => {
    const decoded = decodeStatement(name, bytes);
    return parseText(name, decoded.text, decoded.latin1Line);
  }));
}

/** Whatever goes wrong reading a file is that file's refusal, with the reason. */
function guarded(name: string, read: () => Statement[]): Statement[] {
  try {
    return read();
  } catch (err) {
    if (err instanceof StatementError) throw err;
    throw new StatementError(
      name,
      'file',
      `could not be read (${clip((err as Error).message, 200) ?? 'unknown error'})`,
    );
  }
}

export async function readStatementFile(file: string): Promise<IdentifiedStatement[]> {
  const name = path.basename(file);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new StatementError(name, 'file', 'not a readable file');
  if (info.size > MAX_STATEMENT_BYTES)
    throw new StatementError(name, 'file', `${info.size} bytes, over the ${MAX_STATEMENT_BYTES}-byte limit`);
  const bytes = await readFile(file).catch((err: Error) => {
    throw new StatementError(name, 'file', `could not be read (${clip(err.message, 200) ?? ''})`);
  });
  return parseStatementBytes(name, bytes);
}
