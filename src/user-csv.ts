// The small CSV files a user hands recon (--rates, --accounts) are read by one set of rules: a BOM and blank lines
// passed over, fields trimmed, a line's field count left to the caller (it names the line and what it expects).
import { parse } from 'csv-parse/sync';
import { UsageError } from './errors.js';

/**
 * `text` as rows of fields: the header and at most `maxRows` rows below it, and one more when there are more (the
 * caller refuses the file then, not a truncated reading of it). `where` names the file in the UsageError.
 */
export function parseUserCsv(text: string, where: string, maxRows: number): string[][] {
  try {
    return parse(text, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      to: maxRows + 2,
    }) as string[][];
  } catch (e) {
    throw new UsageError(`${where}: not readable as CSV (${(e as Error).message.split('\n')[0]})`);
  }
}
