// Parse a disbursement file (.csv, .txt, .dat) into normalised lines: detect BOM, delimiter (comma,
// semicolon, pipe, tab), header or tagged records, quotes and footer lines; then map columns with the
// first layout that matches. A file no layout matches is 'unrecognised'; one csv-parse rejects is
// 'unparseable' — both are kept raw and reported, never a crash.
import { parse } from 'csv-parse/sync';
import { parseMajor } from '../money.js';
import type { Layout } from './layouts.js';

export type LineKind = 'payout' | 'refund' | 'credit' | 'debit';

export interface FileLine {
  lineNo: number; // physical line in the file, from 1
  kind: 'payout' | 'refund' | 'adjustment';
  entryType: 'credit' | 'debit' | null;
  reference: string;
  paymentId: string | null;
  currency: string;
  amount: bigint;
  raw: string;
}

export type ParsedFile =
  | { status: 'parsed'; layout: string; lines: FileLine[]; footerCount: bigint | null; footerTotal: bigint | null; problems: string[] }
  | { status: 'unrecognised' | 'unparseable'; reason: string };

const DELIMITERS = [',', ';', '|', '\t'] as const;

export function detectDelimiter(text: string): string {
  const sample = text.split(/\r?\n/).filter((l) => l.trim() !== '').slice(0, 20);
  let best: string = ',';
  let bestScore = -1;
  for (const d of DELIMITERS) {
    const counts = sample.map((l) => l.split(d).length - 1);
    const nonZero = counts.filter((c) => c > 0).length;
    // most lines split, and split the same way: the delimiter
    const common = mode(counts);
    const score = nonZero === 0 ? -1 : nonZero * 10 + (counts.filter((c) => c === common).length / counts.length) * 5 + common / 100;
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

function mode(values: number[]): number {
  const freq = new Map<number, number>();
  for (const v of values) freq.set(v, (freq.get(v) ?? 0) + 1);
  return [...freq.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0;
}

export function parseDisbursementFile(content: Buffer, layouts: Layout[]): ParsedFile {
  let text = content.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\u0000')) return { status: 'unparseable', reason: 'binary content (NUL bytes)' };
  let rows: string[][];
  let rawLines: string[];
  try {
    const delimiter = detectDelimiter(text);
    rows = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true, trim: true, bom: true }) as string[][];
    rawLines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  } catch (err) {
    return { status: 'unparseable', reason: (err as Error).message };
  }
  if (rows.length === 0) return { status: 'unparseable', reason: 'empty file' };
  for (const layout of layouts) {
    const parsed = applyLayout(layout, rows, rawLines);
    if (parsed) return parsed;
  }
  return { status: 'unrecognised', reason: `no layout matches the first row "${(rawLines[0] ?? '').slice(0, 80)}"` };
}

function applyLayout(layout: Layout, rows: string[][], rawLines: string[]): ParsedFile | null {
  const problems: string[] = [];
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
        if (footerCount === null || footerTotal === null) problems.push(`line ${i + 1}: footer count/total are not integers`);
      }
    });
  }
  const col = (row: string[], ref: string | number | undefined): string => (ref === undefined ? '' : (row[index(ref)] ?? '').trim());
  for (const { row, lineNo } of detail) {
    const raw = rawLines[lineNo - 1] ?? row.join(',');
    const typeCode = col(row, layout.columns.type);
    const kind = layout.types[typeCode];
    const currency = col(row, layout.columns.currency).toUpperCase();
    const amountText = col(row, layout.columns.amount);
    const amount = layout.amountUnit === 'major' ? parseMajor(amountText, currency) : toBigInt(amountText);
    if (!kind || amount === null || !currency) {
      problems.push(`line ${lineNo}: ${!kind ? `unknown record type "${typeCode}"` : amount === null ? `amount "${amountText}" is not a whole number of subunits` : 'no currency'}`);
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
  return { status: 'parsed', layout: layout.id, lines, footerCount, footerTotal, problems };
}

function toBigInt(text: string | undefined): bigint | null {
  const t = (text ?? '').trim();
  return /^[+-]?\d+$/.test(t) ? BigInt(t) : null;
}
