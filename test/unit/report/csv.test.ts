import { describe, expect, it } from 'vitest';
import { CSV_EOL, toCsvField, toCsvRecord } from '../../../src/report/csv.js';
import { MAX_CELL_CHARS, safeText } from '../../../src/report/safe-text.js';

describe('toCsvField', () => {
  it('quotes every text field and leaves numbers alone', () => {
    expect(toCsvField('dsb_123')).toBe('"dsb_123"');
    expect(toCsvField(42)).toBe('42');
    expect(toCsvField(-5)).toBe('-5');
    expect(toCsvField(-9007199254740993n)).toBe('-9007199254740993');
    expect(toCsvField(true)).toBe('true');
  });

  it('writes null and undefined as an empty field and dates as ISO UTC', () => {
    expect(toCsvField(null)).toBe('');
    expect(toCsvField(undefined)).toBe('');
    expect(toCsvField(new Date('2024-05-02T08:30:00Z'))).toBe('2024-05-02T08:30:00.000Z');
  });

  it('quotes commas, quotes and line breaks as RFC 4180 says', () => {
    expect(toCsvField('a,b')).toBe('"a,b"');
    expect(toCsvField('say "hi"')).toBe('"say ""hi"""');
    expect(toCsvField('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(toCsvField('a\r\nb')).toBe('"a\r\nb"');
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    expect(toCsvField('=1+1')).toBe(`"'=1+1"`);
    expect(toCsvField('+41 79 000')).toBe(`"'+41 79 000"`);
    expect(toCsvField('-2+3')).toBe(`"'-2+3"`);
    expect(toCsvField('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(toCsvField('\tcmd')).toBe(`"'\tcmd"`);
    expect(toCsvField('\rcmd')).toBe(`"'\rcmd"`);
    expect(toCsvField('＝1+1')).toBe(`"'＝1+1"`);
    expect(toCsvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(toCsvField('a=b')).toBe('"a=b"');
  });

  it('neutralises a formula start after any separator a spreadsheet may split on', () => {
    expect(toCsvField('PO-1;=2*21;')).toBe(`"PO-1;'=2*21;"`);
    expect(toCsvField('a\t=1+1')).toBe(`"a\t'=1+1"`);
    expect(toCsvField('a|@cmd')).toBe(`"a|'@cmd"`);
    expect(toCsvField('x,+1')).toBe(`"x,'+1"`);
  });

  it('strips terminal control characters (ESC, BEL, C1) and keeps line breaks', () => {
    expect(toCsvField('\u001b[2J\u001b]0;TITLE\u0007ok\u009b1m\nnext')).toBe('"[2J]0;TITLEok1m\nnext"');
  });

  it('neutralises structured values by their text, with bigints kept exact', () => {
    expect(toCsvField({ a: 1n })).toBe('"{""a"":""1""}"');
    expect(toCsvField(['=x'])).toBe('"[""=x""]"');
    expect(toCsvField({ toString: () => '=cmd' })).toBe(`"'=cmd"`);
  });

  it('joins a record with commas, leaving the terminator to the caller', () => {
    expect(toCsvRecord(['id', 1, null, '=x']) + CSV_EOL).toBe(`"id",1,,"'=x"\r\n`);
  });
});

describe('safeText', () => {
  it('keeps xlsx text exact and only prefixes for csv', () => {
    expect(safeText('=HYPERLINK("http://x","y")')).toBe('=HYPERLINK("http://x","y")');
    expect(safeText('=HYPERLINK("http://x","y")', 'csv')).toBe('\'=HYPERLINK("http://x","y")');
    expect(safeText(null)).toBe('');
  });

  it('cuts text longer than an Excel cell and says so', () => {
    const cut = safeText('x'.repeat(MAX_CELL_CHARS + 10));
    expect(cut).toHaveLength(MAX_CELL_CHARS);
    expect(cut.endsWith('[truncated]')).toBe(true);
  });
});
