// Bank statement CSV exports, one layout per bank portal (src/bank/layouts.json, like the settlement-file
// layouts): the header row names the layout; each row is an entry. Amounts are signed (negative: a debit)
// unless the layout has a direction column, and written with the layout's decimal separator (and its
// thousands separator, if any): anything else in the amount column refuses the file, naming the line,
// never guessed (a "1000.00" in a decimal-comma export is not 100,000.00). A file that is not UTF-8
// is read as Latin-1 when its layout says so, and refused otherwise.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths.js';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { sha256 } from './identity.js';
import {
  MAX_ENTRIES, MAX_LINE, MAX_RAW, StatementError, amountOf, clip, groupBy, isoDate, type BankEntry, type NumberStyle,
  type Statement,
} from './statement.js';

const Names = z.union([z.string(), z.array(z.string()).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]));

const LayoutSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  description: z.string(),
  delimiter: z.string().length(1),
  decimalComma: z.boolean(),
  /**
   * Between groups of thousands, if the portal writes one ("." by default with a decimal comma, none with a decimal
   * point).
   */
  thousands: z.enum(['.', ',', ' ', "'", 'none']).optional(),
  /** The encoding of the export when it is not UTF-8. */
  encoding: z.enum(['utf-8', 'latin1']).default('utf-8'),
  dateFormat: z.enum(['YYYY-MM-DD', 'DD.MM.YYYY', 'DD.MM.YY', 'DD/MM/YYYY', 'MM/DD/YYYY']),
  // each column by its header name, or by any of several names a portal may use
  columns: z.object({
    account: Names, bookingDate: Names, valueDate: Names.optional(), amount: Names, currency: Names,
    direction: Names.optional(), counterparty: Names.optional(), remittance: Names.optional(),
    endToEndId: Names.optional(), entryRef: Names.optional(),
  }),
  directions: z.record(z.string(), z.enum(['credit', 'debit'])).optional(),
});
type BankLayout = z.output<typeof LayoutSchema>;

/** src/bank/layouts.json, read from the package root whether running from src (tests) or dist. */
const BANK_LAYOUTS: BankLayout[] = z
  .array(LayoutSchema)
  .parse(JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'src', 'bank', 'layouts.json'), 'utf8')));

const norm = (h: string) => h.trim().toLowerCase();

/** The layout whose required columns the header row names, or null (layouts in file order). */
export function csvLayoutOf(content: string): BankLayout | null {
  const header = content.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  for (const layout of BANK_LAYOUTS) {
    const names = new Set(header.split(layout.delimiter).map((h) => norm(h.replace(/^"|"$/g, ''))));
    const c = layout.columns;
    if ([c.account, c.bookingDate, c.amount, c.currency].every((alts) => alts.some((h) => names.has(norm(h)))))
      return layout;
  }
  return null;
}

const styleOf = (layout: BankLayout): NumberStyle => {
  const thousands = layout.thousands ?? (layout.decimalComma ? '.' : 'none');
  return { decimal: layout.decimalComma ? ',' : '.', thousands: thousands === 'none' ? null : thousands };
};

function dateOf(text: string, format: BankLayout['dateFormat'], fail: (reason: string) => never): string {
  const t = text.trim();
  const m = format === 'YYYY-MM-DD' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(t)
    : format === 'MM/DD/YYYY' ? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(t)
      : format === 'DD.MM.YY' ? /^(\d{2})\.(\d{2})\.(\d{2})$/.exec(t) : /^(\d{2})[./](\d{2})[./](\d{4})$/.exec(t);
  if (!m) fail(`date "${clip(t, 40) ?? ''}" is not ${format}`);
  const [y, mo, d] = format === 'YYYY-MM-DD' ? [m![1], m![2], m![3]] : format === 'MM/DD/YYYY' ? [m![3], m![1], m![2]]
    : format === 'DD.MM.YY' ? [`20${m![3]}`, m![2], m![1]] : [m![3], m![2], m![1]];
  return isoDate(`${y}-${mo}-${d}`, fail);
}

type Row = Omit<BankEntry, 'legacy' | 'bankRef'> & { ownRef: string | null };

export function parseCsvStatement(file: string, content: string, layout: BankLayout): Statement[] {
  let rows: string[][];
  try {
    rows = parse(content.replace(/^\uFEFF/, ''), {
      delimiter: layout.delimiter,
      relax_column_count: false,
      skip_empty_lines: true,
      bom: true,
      max_record_size: MAX_LINE,
    }) as string[][];
  } catch (err) {
    const e = err as { lines?: number; message: string };
    throw new StatementError(file, `line ${e.lines ?? '?'}`, `not readable as ${layout.id} CSV: ${e.message}`);
  }
  const [header, ...body] = rows;
  if (!header) throw new StatementError(file, 'line 1', 'empty file');
  if (body.length > MAX_ENTRIES)
    throw new StatementError(file, `line ${MAX_ENTRIES + 2}`, `more than ${MAX_ENTRIES} entries`);
  const index = new Map(header.map((h, i) => [norm(h), i]));
  const col = (names: string[] | undefined) => names?.map((n) => index.get(norm(n))).find((k) => k !== undefined);
  const c = layout.columns;
  const style = styleOf(layout);
  const entries: Row[] = body.map((row, i) => {
    const line = i + 2;
    const fail = (reason: string): never => {
      throw new StatementError(file, `line ${line}`, reason);
    };
    const get = (names: string[] | undefined) => {
      const k = col(names);
      return k === undefined ? null : (row[k] ?? null);
    };
    const account = get(c.account)?.trim();
    if (!account) fail(`no ${c.account[0]}`);
    const amountText = (get(c.amount) ?? '').trim();
    let direction: 'credit' | 'debit' = amountText.startsWith('-') ? 'debit' : 'credit';
    if (c.direction) {
      const d = layout.directions?.[(get(c.direction) ?? '').trim().toUpperCase()];
      if (!d)
        fail(
          `${c.direction[0]} "${clip(get(c.direction), 20) ?? ''}" is not one of ` +
            `${Object.keys(layout.directions ?? {}).join(', ')}`,
        );
      direction = d!;
    }
    const valueText = get(c.valueDate);
    return {
      ownRef: clip(get(c.entryRef), 200),
      account: account!,
      bookingDate: dateOf(get(c.bookingDate) ?? '', layout.dateFormat, fail),
      valueDate: valueText && valueText.trim() !== '' ? dateOf(valueText, layout.dateFormat, fail) : null,
      amount: amountOf(amountText.replace(/^[+-]/, ''), get(c.currency) ?? '', fail, style),
      currency: (get(c.currency) ?? '').trim().toUpperCase(),
      direction,
      endToEndId: clip(get(c.endToEndId)),
      remittance: clip(get(c.remittance)),
      counterparty: clip(get(c.counterparty)),
      batch: null,
      raw: row.join(layout.delimiter).slice(0, MAX_RAW),
    };
  });
  // one statement per account in the export, named by its layout (identity.ts adds the account)
  return [...groupBy(entries, (e) => e.account)].map(([account, list]) => ({
    format: 'csv' as const, bankStatementId: layout.id, account, entries: withLegacy(layout, account, list),
  }));
}

/**
 * The identity recon first gave CSV rows: the export's own reference, or a hash of what the row says with its
 * occurrence among identical rows of the account.
 */
function withLegacy(layout: BankLayout, account: string, rows: Row[]): BankEntry[] {
  const statementId = `csv:${layout.id}:${sha256(account).slice(0, 16)}`;
  const seen = new Map<string, number>();
  return rows.map(({ ownRef, ...e }) => {
    let entryRef = `r:${ownRef}`;
    if (!ownRef) {
      const content = JSON.stringify([
        e.account,
        e.bookingDate,
        e.valueDate,
        String(e.amount),
        e.currency,
        e.direction,
        e.endToEndId,
        e.remittance,
        e.counterparty,
      ]);
      const n = (seen.get(content) ?? 0) + 1;
      seen.set(content, n);
      entryRef = `h:${sha256(content).slice(0, 32)}:${n}`;
    }
    return { ...e, bankRef: ownRef, legacy: { statementId, entryRef } };
  });
}
