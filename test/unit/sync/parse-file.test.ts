import { describe, expect, it } from 'vitest';
import { detectDelimiter, parseDisbursementFile } from '../../../src/sync/parse-file.js';
import { loadLayouts } from '../../../src/sync/layouts.js';
import { linkExpiry } from '../../../src/sync/files.js';
import { testRandom } from '../../helpers/seed.js';

const layouts = await loadLayouts();
const parse = (text: string) => parseDisbursementFile(Buffer.from(text, 'utf8'), layouts);

describe('disbursement file parsing', () => {
  it('detects comma, semicolon, pipe and tab delimiters', () => {
    expect(detectDelimiter('a,b,c\n1,2,3')).toBe(',');
    expect(detectDelimiter('a;b;c\n1;2;3')).toBe(';');
    expect(detectDelimiter('a|b|c\n1|2|3')).toBe('|');
    expect(detectDelimiter('a\tb\tc\n1\t2\t3')).toBe('\t');
  });

  it('judges the delimiter on the first 20 non-blank lines, cut as split(/\\r?\\n/) cuts them', () => {
    // the rule written the plain way: the whole text cut into lines
    const reference = (text: string) => {
      const sample = text.split(/\r?\n/).filter((l) => l.trim() !== '').slice(0, 20);
      let best = ',';
      let bestScore = -1;
      for (const d of [',', ';', '|', '\t']) {
        const counts = sample.map((l) => l.split(d).length - 1);
        const freq = new Map<number, number>();
        for (const c of counts) freq.set(c, (freq.get(c) ?? 0) + 1);
        const common = [...freq.entries()].sort((x, y) => y[1] - x[1] || y[0] - x[0])[0]?.[0] ?? 0;
        const nonZero = counts.filter((c) => c > 0).length;
        const score = nonZero === 0 ? -1
          : nonZero * 10 + (counts.filter((c) => c === common).length / counts.length) * 5 + common / 100;
        if (score > bestScore) [bestScore, best] = [score, d];
      }
      return best;
    };
    const { next } = testRandom('detect-delimiter-lines');
    const pieces = [',', ';', '|', '\t', 'a', '1', ' ', '\n', '\r\n', '\r', '\n\n', '\r\n \r\n', ',,', ';;;'];
    for (let i = 0; i < 2000; i += 1) {
      const length = Math.floor(next() * 300);
      const text = Array.from({ length }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      expect(detectDelimiter(text), JSON.stringify(text)).toBe(reference(text));
    }
  });

  it('reads the csv layout in major units exactly, JPY, KWD and MGA included, with quoted fields', () => {
    const r = parse('record_type,reference,payment_id,amount,currency,description\n'
      + 'PAYOUT,po_1,pay_1,1234,JPY,"Tokyo, shop"\nREFUND,rf_1,pay_2,1.234,KWD,x\nADJUSTMENT_DEBIT,adj_1,pay_3,1.2,MGA,fee\n');
    expect(r.status).toBe('parsed');
    if (r.status !== 'parsed') return;
    expect(r.layout).toBe('settlement-csv');
    expect(r.lines.map((l) => [l.kind, l.entryType, l.reference, l.amount, l.currency])).toEqual([
      ['payout', null, 'po_1', 1234n, 'JPY'],
      ['refund', null, 'rf_1', 1234n, 'KWD'],
      ['adjustment', 'debit', 'adj_1', 6n, 'MGA'],
    ]);
  });

  it('strips a BOM and reads the pipe layout in subunits', () => {
    const r = parse('\uFEFFTYPE|REF|PAYMENT_ID|AMOUNT_MINOR|CCY\nP|po_1|pay_1|500|EUR\nAC|adj|pay_1|25|EUR\n');
    expect(r.status === 'parsed' && r.layout).toBe('payouts-pipe');
    expect(r.status === 'parsed' && r.lines.map((l) => l.amount)).toEqual([500n, 25n]);
  });

  it('reads the tagged dat layout with its footer count and total', () => {
    const r = parse('H;dsb_1;2026-10-01T00:00:00Z\nD;P;po_1;pay_1;700;EUR\nD;R;rf_1;pay_1;200;EUR\nT;2;500\n');
    expect(r.status).toBe('parsed');
    if (r.status !== 'parsed') return;
    expect([r.layout, r.lines.length, r.footerCount, r.footerTotal]).toEqual(['tagged-dat', 2, 2n, 500n]);
    expect(r.lines[1]!.lineNo).toBe(3);
  });

  it('reports an unknown layout as unrecognised and binary content as unparseable, without throwing', () => {
    expect(parse('foo,bar\n1,2\n').status).toBe('unrecognised');
    expect(parseDisbursementFile(Buffer.from([0, 1, 2, 0]), layouts).status).toBe('unparseable');
  });

  it('keeps lines it cannot read as problems with their line number', () => {
    const r = parse('TYPE|REF|PAYMENT_ID|AMOUNT_MINOR|CCY\nP|po_1|pay_1|12.5|EUR\nZZ|x|y|1|EUR\n');
    expect(r.status === 'parsed' && r.problems).toEqual([{ lineNo: 2, reason: expect.stringMatching(/^amount/) }, { lineNo: 3, reason: expect.stringMatching(/^unknown record type/) }]);
  });
});

describe('pre-signed link expiry', () => {
  it('reads expires=<unix seconds> and S3-style X-Amz-Date + X-Amz-Expires', () => {
    const listed = Date.UTC(2026, 10, 22, 1, 0);
    expect(linkExpiry('http://h/f?expires=1700000000&signature=x', listed)).toBe(1_700_000_000_000);
    expect(linkExpiry('https://s3/f?X-Amz-Date=20261122T010000Z&X-Amz-Expires=900', listed)).toBe(Date.UTC(2026, 10, 22, 1, 15));
    expect(linkExpiry('https://h/f', listed)).toBeNull();
  });
});

describe('the expiry query parameter is a duration', () => {
  const listed = Date.UTC(2026, 10, 22, 1, 0);
  it('reads expiry=<seconds> as a duration from when /files answered, an epoch only when it is one', () => {
    expect(linkExpiry('https://h/f?expiry=900&sig=x', listed)).toBe(listed + 900_000);
    expect(linkExpiry('https://h/f?expires=3600', listed)).toBe(listed + 3_600_000);
    expect(linkExpiry('https://h/f?expiry=1800000000', listed)).toBe(1_800_000_000_000);
    expect(linkExpiry('https://h/f?X-Amz-Expires=60', listed)).toBe(listed + 60_000);
  });
});

describe('bounds on what one file may hold', () => {
  const layouts = [{ id: 't', match: { header: ['TYPE', 'REF', 'AMOUNT_MINOR', 'CCY'] }, columns: { type: 'TYPE', reference: 'REF', amount: 'AMOUNT_MINOR', currency: 'CCY' }, types: { P: 'payout' as const }, amountUnit: 'minor' as const }];
  it('calls a file with a text line over the limit unparseable, without splitting it', () => {
    const long = Buffer.concat([Buffer.from('TYPE,REF,AMOUNT_MINOR,CCY\nP,'), Buffer.alloc(70_000, 'x'), Buffer.from(',1,EUR\n')]);
    const r = parseDisbursementFile(long, layouts as never);
    expect(r).toEqual({ status: 'unparseable', reason: 'line 2 is 70008 bytes long, above the limit of 65536' });
  });

  it('calls a file with more lines than the limit unparseable, and keeps at most 100 line problems', () => {
    const rows = Array.from({ length: 500 }, (_, i) => `Q,r${i},1,EUR`).join('\n');
    const many = parseDisbursementFile(Buffer.from(`TYPE,REF,AMOUNT_MINOR,CCY\n${rows}\n`), layouts as never, { maxLines: 100, maxLineBytes: 1000 });
    expect(many).toEqual({ status: 'unparseable', reason: 'more than 100 lines (--max-lines)' });
    const bad = parseDisbursementFile(Buffer.from(`TYPE,REF,AMOUNT_MINOR,CCY\n${rows}\n`), layouts as never);
    expect(bad.status === 'parsed' && bad.problems.length).toBe(101);
    expect(bad.status === 'parsed' && bad.problems[100]).toEqual({ lineNo: null, reason: '400 more lines with problems like the above' });
  });
});
