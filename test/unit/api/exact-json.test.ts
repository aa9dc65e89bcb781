// The service's JSON read without altering a number (src/api/json.ts): a number a double holds is a
// number, any other keeps its digits as sent (InexactNumber), and a record's canonical text writes them back.
import { describe, expect, it } from 'vitest';
import { InexactNumber, holdsExactly, parseJsonExact } from '../../../src/api/json.js';
import { canonicalJson } from '../../../src/sync/canonical.js';
import { PayoutSchema, describeIssues } from '../../../src/api/schemas.js';

describe('parseJsonExact', () => {
  it.each([
    ['9007199254740993', new InexactNumber('9007199254740993')],
    ['-9007199254740993', new InexactNumber('-9007199254740993')],
    ['9223372036854775807', new InexactNumber('9223372036854775807')],
    ['1e400', new InexactNumber('1e400')],
    ['1e-400', new InexactNumber('1e-400')],
    ['0.10000000000000000001', new InexactNumber('0.10000000000000000001')],
    ['12345678901234567.5', new InexactNumber('12345678901234567.5')],
    ['9007199254740992', 9007199254740992], // 2^53: a double holds it exactly
    ['9007199254740991', 9007199254740991],
    ['1152921504606846976', 2 ** 60],
    ['1200.00', 1200],
    ['1.2e3', 1200],
    ['0.1', 0.1],
    ['-0', -0],
    ['0.000000000000000001', 1e-18],
    ['123456789012345', 123456789012345],
  ])('%s reads as %o', (text, expected) => {
    expect(parseJsonExact(`{"amount":${text}}`)).toEqual({ amount: expected });
    expect(holdsExactly(text)).toBe(!(expected instanceof InexactNumber));
  });

  it('leaves digits inside strings alone, finds numbers at any depth and in arrays, and keeps "__proto__" as data', () => {
    const text = '{"id":"pay_90071992547409931234","__proto__":9007199254740993,"list":[1,9007199254740995,{"x":[18446744073709551617]}],"e":"1e400"}';
    const v = parseJsonExact(text) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(v, '__proto__')?.value).toEqual(new InexactNumber('9007199254740993'));
    expect(v.id).toBe('pay_90071992547409931234');
    expect(v.e).toBe('1e400');
    expect(v.list).toEqual([1, new InexactNumber('9007199254740995'), { x: [new InexactNumber('18446744073709551617')] }]);
  });

  it('a top-level number, and JSON that is not valid stays not valid', () => {
    expect(parseJsonExact('9007199254740993')).toEqual(new InexactNumber('9007199254740993'));
    expect(() => parseJsonExact('{"a": "x 12345678901234567890}')).toThrow(SyntaxError);
    expect(() => parseJsonExact('{"a": 9007199254740993')).toThrow(SyntaxError);
  });

  it('an inexact number 100,000 levels deep is found without overflowing the stack', () => {
    const depth = 100_000;
    const v = parseJsonExact(`${'['.repeat(depth)}9007199254740993${']'.repeat(depth)}`);
    let inner: unknown = v;
    for (let i = 0; i < depth; i += 1) inner = (inner as unknown[])[0];
    expect(inner).toEqual(new InexactNumber('9007199254740993'));
  });

  it('every integer either reads as exactly its value or keeps its digits (seeded)', () => {
    let seed = 8191;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 3000; i += 1) {
      const digits = 1 + Math.floor(next() * 22);
      const text = `${next() < 0.3 ? '-' : ''}${String(1 + Math.floor(next() * 9))}${Array.from({ length: digits - 1 }, () => Math.floor(next() * 10)).join('')}`;
      const got = (parseJsonExact(`[${text}]`) as unknown[])[0];
      if (got instanceof InexactNumber) expect(got.text, `seed 8191, case ${i}`).toBe(text);
      else expect(BigInt(got as number), `seed 8191, case ${i}: ${text}`).toBe(BigInt(text));
    }
  });

  it('a payout with an amount past 2^53 fails validation quoting the digits sent, and its canonical text keeps them', () => {
    const item = parseJsonExact('{"recipient_id":"r","reference":"po1","payment_id":"p1","currency":"EUR","amount":9007199254740993}');
    const parsed = PayoutSchema.safeParse(item);
    expect(parsed.success).toBe(false);
    const reason = describeIssues(parsed.error!, item);
    expect(reason).toBe('amount: 9007199254740993 cannot be read exactly as a number (past 2^53 a double rounds whole numbers); not stored');
    expect(canonicalJson(item)).toBe('{"amount":9007199254740993,"currency":"EUR","payment_id":"p1","recipient_id":"r","reference":"po1"}');
  });
});
