// Parse a disbursement file (.csv, .txt, .dat) into normalised lines: detect BOM, delimiter (comma,
// semicolon, pipe, tab), header or tagged records, quotes and footer lines; then map columns with the
// first layout that matches. A file no layout matches is 'unrecognised'; one csv-parse rejects is
// 'unparseable' — both are kept raw and reported, never a crash.
import { parse } from 'csv-parse/sync';
import { parseMajor } from '../money.js';
import type { Layout } from './layouts.js';
import type { FileLine, LineProblem } from '../store/bundle.js';

export type { FileLine, LineProblem };

export type LineKind = 'payout' | 'refund' | 'credit' | 'debit';

type ParsedFile =
  | {
      status: 'parsed';
      layout: string;
      lines: FileLine[];
      footerCount: bigint | null;
      footerTotal: bigint | null;
      problems: LineProblem[];
    }
  | { status: 'unrecognised' | 'unparseable'; reason: string };

const DELIMITERS = [',', ';', '|', '\t'] as const;

export function detectDelimiter(text: string): string {
  const sample = firstLines(text, 20);
  let best: string = ',';
  let bestScore = -1;
  for (const d of DELIMITERS) {
    const counts = sample.map((l) => l.split(d).length - 1);
    const nonZero = counts.filter((c) => c > 0).length;
    // most lines split, and split the same way: the delimiter
    const common = mode(counts);
    const score =
      nonZero === 0
        ? -1
        : nonZero * 10 + (counts.filter((c) => c === common).length / counts.length) * 5 + common / 100;
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

/**
 * The first `count` lines that are not blank, as text.split(/\r?\n/) cuts them: only those, not the whole
 * file cut into lines (a file is read once per disbursement).
 */
function firstLines(text: string, count: number): string[] {
  const lines: string[] = [];
  for (let start = 0; lines.length < count && start <= text.length;) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 && nl !== -1 ? end - 1 : end);
    if (line.trim() !== '') lines.push(line);
    if (nl === -1) break;
    start = nl + 1;
  }
  return lines;
}

function mode(values: number[]): number {
  const freq = new Map<number, number>();
  for (const v of values) freq.set(v, (freq.get(v) ?? 0) + 1);
  return [...freq.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0;
}

/** How much of a file recon parses: beyond these the file is unparseable, said in a finding, never a crash. */
interface ParseLimits {
  /** Lines in one file (the per-disbursement line limit). */
  maxLines: number;
  /** Bytes in one text line (no settlement record is anywhere near this long). */
  maxLineBytes: number;
}
export const DEFAULT_PARSE_LIMITS: ParseLimits = { maxLines: 250_000, maxLineBytes: 64 * 1024 };
/** Line problems kept per file; the rest are counted in one more. */
const MAX_PROBLEMS = 100;

/** The first limit the raw bytes break, measured without decoding or splitting them. */
function overLimits(content: Buffer, limits: ParseLimits): string | null {
  let lines = 0;
  let start = 0;
  for (;;) {
    const nl = content.indexOf(10, start);
    const end = nl === -1 ? content.length : nl;
    if (end - start > limits.maxLineBytes)
      return `line ${lines + 1} is ${end - start} bytes long, above the limit of ${limits.maxLineBytes}`;
    if (end > start) lines += 1;
    if (lines > limits.maxLines) return `more than ${limits.maxLines} lines (--max-lines)`;
    if (nl === -1) return null;
    start = nl + 1;
  }
}

export function parseDisbursementFile(
  content: Buffer,
  layouts: Layout[],
  limits: ParseLimits = DEFAULT_PARSE_LIMITS,
): ParsedFile {
  const over = overLimits(content, limits);
  if (over) return { status: 'unparseable', reason: over };
  let text = content.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\u0000')) return { status: 'unparseable', reason: 'binary content (NUL bytes)' };
  let rows: string[][];
  let rawLines: string[];
  try {
    const delimiter = detectDelimiter(text);
    rows = splitPlain(text, delimiter) ?? parseQuoted(text, delimiter);
    rawLines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  } catch (err) {
    // the parser's message quotes the file; only its code is kept (service text never enters the store)
    return {
      status: 'unparseable',
      reason: `not readable as delimited text (${(err as { code?: string }).code ?? 'parse error'})`,
    };
  }
  if (rows.length === 0) return { status: 'unparseable', reason: 'empty file' };
  for (const layout of layouts) {
    const parsed = applyLayout(layout, rows, rawLines);
    if (parsed) return parsed;
  }
  return {
    status: 'unrecognised',
    reason: `no layout matches its first row (${rows[0]?.length ?? 0} fields); add a layout to the layouts file`,
  };
}

/** csv-parse's reading of a file (quoted fields, any line ends): the rows of splitPlain's fallback. */
export function parseQuoted(text: string, delimiter: string): string[][] {
  // relax_column_count: header, detail and footer records of a tagged file differ in length (csv-parse builds
  // an error object for each such record, which is why a file without quotes never comes here)
  return parse(text, {
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    bom: true,
  }) as string[][];
}

/**
 * The rows of a file without quotes whose lines all end alike (\n, or \r\n) — every layout's usual shape —
 * split directly: the same rows csv-parse gives (trimmed fields, blank lines skipped; held to it by
 * test/unit/sync/parse-split.test.ts), without csv-parse's per-record work. Its relax_column_count
 * builds a CsvError (a stack trace and a copy of the record) for every record whose length differs from the
 * first's: every detail line of a tagged .dat file, ~10× the cost of the line (issue 26). null: any other
 * file, read by parseQuoted.
 */
export function splitPlain(text: string, delimiter: string): string[][] | null {
  if (text.includes('"')) return null;
  let crlf = false;
  const cr = text.indexOf('\r');
  if (cr !== -1) {
    // every \r in a \r\n and every \n after a \r: csv-parse takes the first line end it sees for all of them
    let crs = 0;
    for (let at = cr; at !== -1; at = text.indexOf('\r', at + 1)) {
      if (text.charCodeAt(at + 1) !== 10) return null;
      crs += 1;
    }
    let lfs = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lfs += 1;
    if (crs !== lfs) return null;
    crlf = true;
  }
  const rows: string[][] = [];
  for (const line of text.split(crlf ? '\r\n' : '\n')) {
    if (!line.includes(delimiter) && line.trim() === '') continue;
    const fields = line.split(delimiter);
    for (let i = 0; i < fields.length; i += 1) fields[i] = fields[i]!.trim();
    rows.push(fields);
  }
  return rows;
}

function applyLayout(layout: Layout, rows: string[][], rawLines: string[]): ParsedFile | null {
  const problems: LineProblem[] = [];
  const lines: FileLine[] = [];
  let footerCount: bigint | null = null;
  let footerTotal: bigint | null = null;
  let index: (ref: string | number) => number;
  let detail: Array<{ row: string[]; lineNo: number }>;

  if ('header' in layout.match) {
    const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
    if (!layout.match.header.every((h) => header.includes(h.toLowerCase()))) return null;
    index = (ref) => (typeof ref === 'number' ? ref : header.indexOf(ref.toLowerCase()));
    detail = rows.slice(1).map((row, i) => ({ row, lineNo: i + 2 }));
  } else {
    const { tagColumn, tags } = layout.match;
    const known = new Set([tags.header, tags.detail, tags.footer].filter(Boolean));
    if (!rows.every((r) => known.has(r[tagColumn] ?? ''))) return null;
    index = (ref) => (typeof ref === 'number' ? ref : -1);
    detail = [];
    rows.forEach((row, i) => {
      const tag = row[tagColumn];
      if (tag === tags.detail) detail.push({ row, lineNo: i + 1 });
      else if (tag === tags.footer && layout.footer) {
        footerCount = toBigInt(row[layout.footer.count]);
        footerTotal = toBigInt(row[layout.footer.total]);
        if (footerCount === null || footerTotal === null)
          problems.push({ lineNo: i + 1, reason: 'footer count/total are not integers' });
      }
    });
  }
  let dropped = 0;
  const col = (row: string[], ref: string | number | undefined): string =>
    ref === undefined ? '' : (row[index(ref)] ?? '').trim();
  for (const { row, lineNo } of detail) {
    const raw = rawLines[lineNo - 1] ?? row.join(',');
    const typeCode = col(row, layout.columns.type);
    const kind = layout.types[typeCode];
    const currency = col(row, layout.columns.currency).toUpperCase();
    const amountText = col(row, layout.columns.amount);
    const amount = layout.amountUnit === 'major' ? parseMajor(amountText, currency) : toBigInt(amountText);
    if (!kind || amount === null || !currency) {
      if (problems.length >= MAX_PROBLEMS) {
        dropped += 1;
        continue;
      }
      problems.push({
        lineNo,
        reason: !kind
          ? `unknown record type "${typeCode}"`
          : amount === null
            ? `amount "${amountText}" is not a whole number of subunits`
            : 'no currency',
      });
      continue;
    }
    lines.push({
      lineNo,
      kind: kind === 'credit' || kind === 'debit' ? 'adjustment' : kind,
      entryType: kind === 'credit' || kind === 'debit' ? kind : null,
      reference: col(row, layout.columns.reference),
      paymentId: col(row, layout.columns.payment_id) || null,
      currency,
      amount,
      raw,
    });
  }
  if (dropped > 0) problems.push({ lineNo: null, reason: `${dropped} more lines with problems like the above` });
  return { status: 'parsed', layout: layout.id, lines, footerCount, footerTotal, problems };
}

function toBigInt(text: string | undefined): bigint | null {
  const t = (text ?? '').trim();
  return /^[+-]?\d+$/.test(t) ? BigInt(t) : null;
}
