// docs/data-dictionary.md says every money column of the documented views has a `<column>_major` companion.
// This test reads the page's list of money columns and the views as a fresh store creates them: every listed
// column exists, its companion exists and is DECIMAL(38, 3), and the ones once found missing (bank_status,
// bank_unmatched_credits, currency_suspense) stay listed. It also fails when a documented view gains a
// subunit column named like money (…amount, …_sum, fee, stake, …) that the list does not name.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/child.js';
import { openTempStore, rows, type TempStore } from '../../helpers/check-fixtures.js';

let t: TempStore;
beforeAll(async () => {
  t = await openTempStore();
});
afterAll(async () => {
  await t.close();
});

/** The "Money columns" paragraph of docs/data-dictionary.md, as view.column pairs. */
function documentedMoneyColumns(): Array<[string, string]> {
  const page = readFileSync(path.join(ROOT, 'docs', 'data-dictionary.md'), 'utf8');
  const start = page.indexOf('**Money columns**');
  expect(start, 'docs/data-dictionary.md has a **Money columns** paragraph').toBeGreaterThan(0);
  const paragraph = page.slice(start, page.indexOf('\n\n', start));
  return [...paragraph.matchAll(/`([a-z_]+)\.([a-z_]+)`/g)].map((m) => [m[1]!, m[2]!]);
}

const MONEY_NAME = /(^|_)(amount|sum|fee|stake|reported|computed|difference|expected|actual|payouts|refunds|adjustments|net|total|variance|credited)$/;

describe('every documented money column has its _major', () => {
  it('lists the columns once found without a companion', () => {
    const listed = documentedMoneyColumns().map(([v, c]) => `${v}.${c}`);
    expect(listed).toEqual(expect.arrayContaining(['bank_status.amount', 'bank_unmatched_credits.amount', 'currency_suspense.signed_amount']));
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('finds each listed column and its <column>_major (DECIMAL(38,3)) in the views', async () => {
    const listed = documentedMoneyColumns();
    const views = [...new Set(listed.map(([v]) => v))];
    const columns = await rows(t.connection, `SELECT table_name, column_name, data_type FROM duckdb_columns()
      WHERE table_name IN (${views.map((v) => `'${v}'`).join(', ')})`);
    const type = new Map(columns.map((c) => [`${String(c.table_name)}.${String(c.column_name)}`, String(c.data_type)]));
    const missing = listed.filter(([v, c]) => !type.has(`${v}.${c}`)).map(([v, c]) => `${v}.${c}`);
    expect(missing, 'listed in docs/data-dictionary.md but not in the view').toEqual([]);
    const noMajor = listed.filter(([v, c]) => type.get(`${v}.${c}_major`) !== 'DECIMAL(38,3)').map(([v, c]) => `${v}.${c}_major`);
    expect(noMajor, 'money columns without a DECIMAL(38,3) companion').toEqual([]);
    // and no integer column named like money in those views is left off the list
    const listedSet = new Set(listed.map(([v, c]) => `${v}.${c}`));
    const unlisted = columns.filter((c) => /INT/.test(String(c.data_type)) && MONEY_NAME.test(String(c.column_name))
      && !String(c.column_name).endsWith('_count') && !listedSet.has(`${String(c.table_name)}.${String(c.column_name)}`))
      .map((c) => `${String(c.table_name)}.${String(c.column_name)}`);
    expect(unlisted, 'integer money-like columns of documented views missing from docs/data-dictionary.md')
      .toEqual([]);
  });
});
