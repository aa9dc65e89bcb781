// Issue 26: files without quotes are split directly (splitPlain) instead of through csv-parse, whose
// relax_column_count built an error object for every detail line of a tagged file. The rows must be the
// ones csv-parse gives: held to it on a file of every layout in layouts.json (each line end, blank and
// padded lines) and on seeded random text; anything it does not split alike it must leave to csv-parse.
import { describe, expect, it } from 'vitest';
import { loadLayouts, type Layout } from '../../../src/sync/layouts.js';
import { parseDisbursementFile, parseQuoted, splitPlain } from '../../../src/sync/parse-file.js';
import { testRandom } from '../../helpers/seed.js';

const layouts = await loadLayouts();

const DELIMITER: Record<string, string> = { 'settlement-csv': ',', 'payouts-pipe': '|', 'tagged-dat': ';' };

/** A file of the layout: its header (or header record), `n` detail lines of every type, a footer if it has one. */
function fileOf(layout: Layout, n: number, delimiter: string, eol: string, pad: (s: string) => string): string {
  const types = Object.keys(layout.types);
  const lines: string[] = [];
  const width = (refs: Array<string | number | undefined>) => Math.max(...refs.map((r) => (typeof r === 'number' ? r + 1 : 0)));
  if ('header' in layout.match) {
    lines.push([...layout.match.header, 'description'].join(delimiter));
    const header = [...layout.match.header, 'description'];
    for (let i = 0; i < n; i += 1) {
      const row = header.map(() => '');
      const set = (ref: string | number | undefined, v: string) => {
        if (ref === undefined) return;
        const at = typeof ref === 'number' ? ref : header.findIndex((h) => h.toLowerCase() === ref.toLowerCase());
        if (at >= 0) row[at] = v;
      };
      set(layout.columns.type, types[i % types.length]!);
      set(layout.columns.reference, `ref_${i}`);
      set(layout.columns.payment_id, `pay_${i}`);
      set(layout.columns.amount, layout.amountUnit === 'major' ? `${i}.${String(i % 100).padStart(2, '0')}` : String(i * 7));
      set(layout.columns.currency, 'EUR');
      row[row.length - 1] = `line ${i}`;
      lines.push(row.map(pad).join(delimiter));
    }
  } else {
    const { tagColumn, tags } = layout.match;
    const cols = layout.columns;
    const detailWidth = width([tagColumn, cols.type, cols.reference, cols.payment_id, cols.amount, cols.currency]);
    const record = (tag: string, widthOf: number, fill: (row: string[]) => void) => {
      const row = Array.from({ length: widthOf }, () => '');
      row[tagColumn] = tag;
      fill(row);
      return row.map(pad).join(delimiter);
    };
    if (tags.header) lines.push(record(tags.header, tagColumn + 3, (r) => { r[tagColumn + 1] = 'dsb_1'; r[tagColumn + 2] = '2026-10-01T00:00:00Z'; }));
    for (let i = 0; i < n; i += 1) {
      lines.push(record(tags.detail, detailWidth, (r) => {
        r[cols.type as number] = types[i % types.length]!;
        r[cols.reference as number] = `ref_${i}`;
        if (cols.payment_id !== undefined) r[cols.payment_id as number] = `pay_${i}`;
        r[cols.amount as number] = String(i * 7);
        r[cols.currency as number] = 'EUR';
      }));
    }
    if (tags.footer && layout.footer) {
      const footer = layout.footer;
      lines.push(record(tags.footer, width([tagColumn, footer.count, footer.total]), (r) => { r[footer.count] = String(n); r[footer.total] = '0'; }));
    }
  }
  return lines.join(eol) + eol;
}

describe('splitting files without quotes', () => {
  it.each(layouts.map((l) => [l.id, l] as const))('gives csv-parse\'s rows and the same parse on a %s file (LF, CRLF, padded, blank lines)', (_id, layout) => {
    const delimiter = DELIMITER[layout.id] ?? ';';
    for (const eol of ['\n', '\r\n']) {
      for (const pad of [(s: string) => s, (s: string) => ` ${s}  `]) {
        const text = fileOf(layout, 25, delimiter, eol, pad).replace(`${eol}`, `${eol}${eol}  ${eol}`); // blank and space-only lines after the first
        const split = splitPlain(text, delimiter);
        expect(split).not.toBeNull();
        expect(split).toEqual(parseQuoted(text, delimiter));
        const parsed = parseDisbursementFile(Buffer.from(text), layouts);
        expect(parsed.status).toBe('parsed');
        expect(parsed.status === 'parsed' && [parsed.layout, parsed.lines.length, parsed.problems]).toEqual([layout.id, 25, []]);
      }
    }
  });

  it('gives csv-parse\'s rows on seeded random text, or leaves it to csv-parse', () => {
    const { seed, next } = testRandom('parse-split: seeded random text');
    const alphabet = ['a', 'B', '7', ' ', '  ', '\t', ',', ';', '|', '\u00a0', '\u3000', '\u2028', '\ufeff', '?', '\v', '\f', 'é', '€', '\n', '\n', '\r\n', '\r\n', '\r', '"'];
    let split = 0;
    for (let i = 0; i < 3000; i += 1) {
      const parts = Array.from({ length: 1 + Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * (i % 2 ? alphabet.length - 2 : alphabet.length))]!);
      const text = parts.join('');
      const delimiter = [',', ';', '|', '\t'][i % 4]!;
      const mine = splitPlain(text, delimiter);
      if (mine === null) continue;
      split += 1;
      expect(mine, `seed ${seed}, case ${i}: ${JSON.stringify(text)}`).toEqual(parseQuoted(text, delimiter));
    }
    expect(split).toBeGreaterThan(500);
  });

  it('leaves quoted text and mixed line ends to csv-parse', () => {
    expect(splitPlain('a,"b,c"\n', ',')).toBeNull();
    expect(splitPlain('a,b\r\nc,d\ne,f\n', ',')).toBeNull();
    expect(splitPlain('a,b\rc,d\r', ',')).toBeNull();
    expect(splitPlain('a;b\r\nc;d\r\n', ';')).toEqual([['a', 'b'], ['c', 'd']]);
  });
});
