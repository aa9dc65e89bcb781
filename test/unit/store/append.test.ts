// The bulk path into DuckDB fills the data chunks' vectors itself (src/store/append.ts): short strings
// inlined, long ones handed over once per chunk and their repeats given the same slot, numbers and
// validity copied whole. Every kind of value is written that way and read back unchanged, over several
// chunks (a seeded mix, the seed printed on failure); slices refilled in the same arrays arrive as given.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendColumns, appendRows, appendSlices, type ColumnSlice } from '../../../src/store/append.js';
import { testRandom } from '../../helpers/seed.js';

let instance: DuckDBInstance;
let c: DuckDBConnection;
beforeEach(async () => {
  instance = await DuckDBInstance.create(':memory:');
  c = await instance.connect();
  await c.run('CREATE TABLE t (s VARCHAR, i INTEGER, b BIGINT, s2 VARCHAR)');
});
afterEach(() => {
  c.closeSync();
  instance.closeSync();
});

const EDGE = ['', 'a', '123456789012', '1234567890123', 'éééééé', 'éééééééé', '€€€€', '€€€€€', 'dsb_966c0000a', '{"a":1,"b":"long text with ünïcödé"}', '\u0000nul', '😀😀😀'];

async function readBack(): Promise<unknown[][]> {
  return (await c.runAndReadAll('SELECT s, i, b, s2 FROM t ORDER BY rowid')).getRowsJS();
}

describe('appendColumns', () => {
  it('writes short, exactly-12-byte, long, multi-byte, repeated, empty and null strings, integers and bigints as given', async () => {
    const { seed, next } = testRandom('appendColumns: seeded strings and numbers');
    const n = 5000; // three chunks
    const s: Array<string | null> = [];
    const i: Array<number | null> = [];
    const b: Array<bigint | null> = [];
    const s2: Array<string | null> = [];
    for (let r = 0; r < n; r += 1) {
      const pick = next();
      s.push(pick < 0.1 ? null : pick < 0.5 ? EDGE[Math.floor(next() * EDGE.length)]! : `line ${Math.floor(next() * 50)} of a long repeated text`);
      i.push(next() < 0.05 ? null : Math.floor(next() * 4294967296) - 2147483648);
      b.push(next() < 0.05 ? null : BigInt.asIntN(64, BigInt(Math.floor(next() * 2 ** 52)) * 4099n - 2n ** 62n));
      s2.push(r % 7 === 0 ? null : 'run-20261125T102424Z-0b30');
    }
    b[1] = 9223372036854775807n;
    b[2] = -9223372036854775808n;
    await appendColumns(c, 't', ['varchar', 'integer', 'bigint', 'varchar'], [s, i, b, s2]);
    const rows = await readBack();
    expect(rows.length, `seed ${seed}`).toBe(n);
    for (let r = 0; r < n; r += 1) expect(rows[r], `row ${r}, seed ${seed}`).toEqual([s[r], i[r], b[r], s2[r]]);
    // strings compare as DuckDB strings too (inlined slots zero-padded)
    const equal = (await c.runAndReadAll(`SELECT count(*) FROM t WHERE s = '123456789012'`)).getRowsJS()[0]![0];
    expect(Number(equal)).toBe(s.filter((x) => x === '123456789012').length);
  });

  it('refuses a number that does not fit its column instead of writing another one', async () => {
    await expect(appendRows(c, 't', ['varchar', 'integer', 'bigint', 'varchar'], [['x', 2 ** 31, 1n, null]])).rejects.toThrow(/is not an INTEGER/);
    await expect(appendRows(c, 't', ['varchar', 'integer', 'bigint', 'varchar'], [['x', 1, 2n ** 63n, null]])).rejects.toThrow(/out of the BIGINT range/);
  });

  it('writes safe-integer numbers to BIGINT exactly and refuses a fraction', async () => {
    const numbers = [0, -1, 1, 4294967295, 4294967296, -4294967296, -4294967297, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 60, -(2 ** 62)];
    await appendColumns(c, 't', ['varchar', 'integer', 'bigint', 'varchar'], [numbers.map(() => 'x'), numbers.map(() => 0), numbers, numbers.map(() => null)]);
    expect((await readBack()).map((r) => r[2])).toEqual(numbers.map((n) => BigInt(n)));
    await expect(appendRows(c, 't', ['varchar', 'integer', 'bigint', 'varchar'], [['x', 1, 1.5, null]])).rejects.toThrow();
  });
});

describe('appendSlices', () => {
  it('appends slices of any length refilled in the same arrays, repeated strings across slices and chunks unchanged', async () => {
    const { seed, next } = testRandom('appendSlices: refilled slices');
    const lengths = [0, 1, 2047, 2048, 2049, 3, 5000, 0, 700];
    const expected: unknown[][] = [];
    const columns: Array<Array<string | number | bigint | null>> = [[], [], [], []];
    function* slices(): Generator<ColumnSlice> {
      for (const length of lengths) {
        for (let r = 0; r < length; r += 1) {
          const pick = next();
          // runs of one long string (a line's disbursement id), broken by nulls and short ones
          const s = pick < 0.05 ? null : pick < 0.15 ? EDGE[Math.floor(next() * EDGE.length)]! : `dsb_${Math.floor(expected.length / 37)}_long_enough_to_be_stored_apart`;
          const i = Math.floor(next() * 1000) - 500;
          const b = next() < 0.5 ? Math.floor((next() - 0.5) * 2 ** 53) : BigInt(Math.floor(next() * 1000));
          const s2 = next() < 0.5 ? `raw line ${expected.length} ${'x'.repeat(Math.floor(next() * 40))}` : null;
          columns[0]![r] = s;
          columns[1]![r] = i;
          columns[2]![r] = b;
          columns[3]![r] = s2;
          expected.push([s, i, BigInt(b), s2]);
        }
        yield { columns, rows: length };
        // what the appender kept must not depend on the arrays afterwards
        for (const col of columns) col.fill('overwritten');
      }
    }
    await appendSlices(c, 't', ['varchar', 'integer', 'bigint', 'varchar'], slices());
    const rows = await readBack();
    expect(rows.length, `seed ${seed}`).toBe(expected.length);
    for (let r = 0; r < rows.length; r += 1) expect(rows[r], `row ${r}, seed ${seed}`).toEqual(expected[r]);
  });

  it('writes nothing for no slices or empty ones', async () => {
    await appendSlices(c, 't', ['varchar', 'integer', 'bigint', 'varchar'], []);
    await appendSlices(c, 't', ['varchar', 'integer', 'bigint', 'varchar'], [{ columns: [[], [], [], []], rows: 0 }]);
    expect(await readBack()).toEqual([]);
  });
});
