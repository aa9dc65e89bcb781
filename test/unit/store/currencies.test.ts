// The currency facts exist twice: src/money.ts for TypeScript and sql/views/00_currencies.sql for the
// checks. This test is what keeps them one fact: every listed code and a few unlisted ones, the factor,
// the listed set and the exact formatting must agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTED_CURRENCIES, currencyFactor, formatMajor } from '../../../src/money.js';
import { openTempStore, rows, type TempStore } from '../../helpers/check-fixtures.js';

let t: TempStore;
beforeAll(async () => {
  t = await openTempStore();
});
afterAll(async () => {
  await t.close();
});

const UNLISTED = ['XXX', 'BTC', 'ZWL', 'usd', ''];
const AMOUNTS = [0n, 1n, -1n, 7n, 99n, 100n, 101n, -1234567n, 26351478n, 9007199254740993n];

describe('currency facts in TypeScript and in SQL', () => {
  it('list the same codes', async () => {
    const sql = (await rows(t.connection, 'SELECT code FROM currencies ORDER BY code')).map((r) => String(r.code));
    expect(sql).toEqual([...LISTED_CURRENCIES].sort());
  });

  it('give every code, listed or not, the same factor and the same exact major-unit text', async () => {
    const codes = [...LISTED_CURRENCIES, ...UNLISTED];
    const got = await rows(t.connection, `
      SELECT c.code, currency_factor(c.code) AS factor, a.amt::VARCHAR AS amt, format_amount(a.amt, c.code) AS text,
             to_major(a.amt, c.code)::VARCHAR AS major
      FROM (SELECT unnest([${codes.map((c) => `'${c}'`).join(',')}]) AS code) c,
           (SELECT unnest([${AMOUNTS.join(',')}]::HUGEINT[]) AS amt) a`);
    expect(got).toHaveLength(codes.length * AMOUNTS.length);
    // to_major (the views' *_major companions): thousandths of a major unit = subunits × 1000 / factor, exactly
    const sameNumber = (major: unknown, amt: string, code: string) =>
      BigInt(String(major).replace('.', '')) === (BigInt(amt) * 1000n) / BigInt(currencyFactor(code));
    const mismatches = got.filter((r) => Number(r.factor) !== currencyFactor(String(r.code))
      || r.text !== formatMajor(BigInt(String(r.amt)), String(r.code))
      || !sameNumber(r.major, String(r.amt), String(r.code)));
    expect(mismatches).toEqual([]);
  });
});
