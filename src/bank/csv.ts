// Bank statement CSV exports, one layout per bank portal (src/bank/layouts.json, like the settlement-file
// layouts): the header row names the layout; each row is an entry. Amounts are signed (negative: a debit)
// unless the layout has a direction column. Rows without a reference of their own are identified by
// their content (statement.ts, contentRefs), so the same export imported twice adds nothing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../paths.js';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { MAX_ENTRIES, MAX_RAW, StatementError, amountOf, clip, contentRefs, isoDate, sha256, type BankEntry, type Statement } from './statement.js';

const Names = z.union([z.string(), z.array(z.string()).min(1)]).transform((v) => (Array.isArray(v) ? v : [v]));

const LayoutSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  description: z.string(),
  delimiter: z.string().length(1),
  decimalComma: z.boolean(),
  dateFormat: z.enum(['YYYY-MM-DD', 'DD.MM.YYYY', 'DD/MM/YYYY', 'MM/DD/YYYY']),
  // each column by its header name, or by any of several names a portal may use
  columns: z.object({
    account: Names, bookingDate: Names, valueDate: Names.optional(), amount: Names, currency: Names,
    direction: Names.optional(), counterparty: Names.optional(), remittance: Names.optional(),
    endToEndId: Names.optional(), entryRef: Names.optional(),
  }),
  directions: z.record(z.string(), z.enum(['credit', 'debit'])).optional(),
});
export type BankLayout = z.output<typeof LayoutSchema>;

/** src/bank/layouts.json, read from the package root whether running from src (tests) or dist. */
export const BANK_LAYOUTS: BankLayout[] = z.array(LayoutSchema).parse(JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'src', 'bank', 'layouts.json'), 'utf8')));

const norm = (h: string) => h.trim().toLowerCase();

/** The layout whose required columns the header row names, or null (layouts in file order). */
export function csvLayoutOf(content: string): BankLayout | null {
  const header = content.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  for (const layout of BANK_LAYOUTS) {
    const names = new Set(header.split(layout.delimiter).map((h) => norm(h.replace(/^"|"$/g, ''))));
    const c = layout.columns;
    if ([c.account, c.bookingDate, c.amount, c.currency].every((alts) => alts.some((h) => names.has(norm(h))))) return layout;
  }
  return null;
}

function dateOf(text: string, format: BankLayout['dateFormat'], fail: (reason: string) => never): string {
  const t = text.trim();
  const m = format === 'YYYY-MM-DD' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(t)
    : format === 'MM/DD/YYYY' ? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(t) : /^(\d{2})[./](\d{2})[./](\d{4})$/.exec(t);
  if (!m) fail(`date "${clip(t, 40) ?? ''}" is not ${format}`);
  const [y, mo, d] = format === 'YYYY-MM-DD' ? [m![1], m![2], m![3]] : format === 'MM/DD/YYYY' ? [m![3], m![1], m![2]] : [m![3], m![2], m![1]];
  return isoDate(`${y}-${mo}-${d}`, fail);
}

export function parseCsvStatement(file: string, content: string, layout: BankLayout): Statement[] {
  let rows: string[][];
  try {
    rows = parse(content.replace(/^\uFEFF/, ''), { delimiter: layout.delimiter, relax_column_count: false, skip_empty_lines: true, bom: true }) as string[][];
  } catch (err) {
    const e = err as { lines?: number; message: string };
    throw new StatementError(file, `line ${e.lines ?? '?'}`, `not readable as ${layout.id} CSV: ${e.message}`);
  }
  const [header, ...body] = rows;
  if (!header) throw new StatementError(file, 'line 1', 'empty file');
  if (body.length > MAX_ENTRIES) throw new StatementError(file, `line ${MAX_ENTRIES + 2}`, `more than ${MAX_ENTRIES} entries`);
  const index = new Map(header.map((h, i) => [norm(h), i]));
  const col = (names: string[] | undefined) => names?.map((n) => index.get(norm(n))).find((k) => k !== undefined);
  const c = layout.columns;
  const entries: Array<Omit<BankEntry, 'entryRef'> & { ownRef: string | null }> = body.map((row, i) => {
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
    const currency = (get(c.currency) ?? '').trim().toUpperCase();
    let amountText = (get(c.amount) ?? '').trim();
    let direction: 'credit' | 'debit';
    if (c.direction) {
      const d = layout.directions?.[(get(c.direction) ?? '').trim().toUpperCase()];
      if (!d) fail(`${c.direction[0]} "${clip(get(c.direction), 20) ?? ''}" is not one of ${Object.keys(layout.directions ?? {}).join(', ')}`);
      direction = d!;
      amountText = amountText.replace(/^[+-]/, '');
    } else {
      direction = amountText.startsWith('-') ? 'debit' : 'credit';
      amountText = amountText.replace(/^[+-]/, '');
    }
    const valueText = get(c.valueDate);
    return {
      ownRef: clip(get(c.entryRef), 200),
      account: account!,
      bookingDate: dateOf(get(c.bookingDate) ?? '', layout.dateFormat, fail),
      valueDate: valueText && valueText.trim() !== '' ? dateOf(valueText, layout.dateFormat, fail) : null,
      amount: amountOf(amountText, currency, fail, layout.decimalComma),
      currency,
      direction,
      endToEndId: clip(get(c.endToEndId)),
      remittance: clip(get(c.remittance)),
      counterparty: clip(get(c.counterparty)),
      raw: row.join(layout.delimiter).slice(0, MAX_RAW),
    };
  });
  // one statement per account in the export
  const byAccount = new Map<string, typeof entries>();
  for (const e of entries) {
    const list = byAccount.get(e.account) ?? [];
    list.push(e);
    byAccount.set(e.account, list);
  }
  return [...byAccount].map(([account, list]) => {
    const withoutOwn = contentRefs(list.filter((e) => !e.ownRef).map(({ ownRef: _, ...e }) => e));
    const withOwn = list.filter((e) => e.ownRef).map(({ ownRef, ...e }) => ({ ...e, entryRef: `r:${ownRef}` }));
    // the statement of an export is the account's entries: identified by layout and account, entries by reference or content
    return { format: 'csv' as const, statementId: `csv:${layout.id}:${sha256(account).slice(0, 16)}`, account, entries: [...withOwn, ...withoutOwn] };
  });
}
