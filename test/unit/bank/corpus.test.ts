// a statement corpus per bank dialect and standard (test/fixtures/bank/<dialect>/), each file written
// from its bank's or its standard's published format description (fictional data), with the entries it
// must produce beside it (<file>.expected.json: signed amounts in subunits, currency, value date, in file
// order) or the refusal it must meet. Read from the bytes, as `recon bank import` reads them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStatementBytes } from '../../../src/bank/parse.js';
import { StatementError } from '../../../src/bank/statement.js';
import { ROOT } from '../../helpers/child.js';
import { factsOf } from '../../../src/bank/period.js';

const CORPUS = path.join(ROOT, 'test', 'fixtures', 'bank');

interface Expected {
  source: string;
  statements?: number;
  entries?: Array<{ account: string; amount: number; currency: string; valueDate: string }>;
  /** Fields of the first entry. */
  first?: Record<string, string | null>;
  refused?: string;
  /** Each statement's period, balances (subunits) and balance proof (src/bank/period.ts). */
  periods?: Array<{ from: string; to: string; opening: number | null; closing: number | null; proof: string }>;
}

const cases = readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) =>
  readdirSync(path.join(CORPUS, d.name)).filter((f) => !f.endsWith('.expected.json')).sort()
    .map((f) => ({ dialect: d.name, file: f, path: path.join(CORPUS, d.name, f) })));

describe('the statement corpus, dialect by dialect', () => {
  it('holds every dialect the issue names, each file with its expectation', () => {
    expect([...new Set(cases.map((c) => c.dialect))].sort()).toEqual(expect.arrayContaining(['abnamro', 'bai2-bofa', 'bai2-jpmorgan', 'bai2-wellsfargo',
      'camt053-batch-de', 'camt053-batch-nl', 'deutsche-bank', 'ing', 'mbank', 'rabobank', 'swiss', 'uk']));
    for (const c of cases) expect(readdirSync(path.dirname(c.path)), c.file).toContain(`${c.file}.expected.json`);
  });

  it.each(cases)('$dialect/$file', ({ file, path: p }) => {
    const expected = JSON.parse(readFileSync(`${p}.expected.json`, 'utf8')) as Expected;
    const read = () => parseStatementBytes(file, readFileSync(p));
    if (expected.refused) {
      let error: unknown;
      try {
        read();
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(StatementError);
      expect((error as Error).message).toMatch(new RegExp(expected.refused));
      return;
    }
    const statements = read();
    if (expected.statements !== undefined) expect(statements).toHaveLength(expected.statements);
    const entries = statements.flatMap((s) => s.entries);
    expect(entries.map((e) => ({ account: e.account, amount: Number(e.direction === 'debit' ? -e.amount : e.amount), currency: e.currency, valueDate: e.valueDate })))
      .toEqual(expected.entries);
    if (expected.first) expect(entries[0]).toMatchObject(expected.first);
    if (expected.periods) {
      expect(statements.map((s) => factsOf(s)).map((f) => ({ from: f.periodFrom, to: f.periodTo, opening: f.opening === null ? null : Number(f.opening.amount),
        closing: f.closing === null ? null : Number(f.closing.amount), proof: f.proof }))).toEqual(expected.periods);
    }
    // every entry of a file has an identity of its own
    expect(new Set(statements.flatMap((s) => s.entries.map((e) => `${s.accountKey} ${e.entryKey}`))).size).toBe(entries.length);
  });
});
