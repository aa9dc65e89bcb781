// on the sandbox's planted nights (the demo: two nights with planted anomalies and bank statements):
// what the accountant reads at 8 a.m. is true. The workbooks are read back: money at stake ordered per
// currency without rates and in one reporting currency with them (never raw subunits across currencies),
// totals and the rates named on the Summary, the bank's words the same in the Bank sheet, the view, the
// findings and the close, a cause's repeats folded under its root, and the close provisional while
// money is unaccounted for unless a person accepts it by name.
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, tempDir } from '../helpers/recon.js';
import { runCliHere } from '../helpers/in-process.js';
import { copyDemo, sharedDemo } from '../helpers/demo.js';
import { currencyFactor } from '../../src/money.js';

let dir: string;
let db: string;
let cleanup: () => void;

// rates to USD, as a rates file states them (what one major unit is worth)
const RATES: Record<string, number> = { USD: 1, EUR: 1.08, GBP: 1.27, JPY: 0.0067, KWD: 3.25, MGA: 0.00022, VND: 0.000039 };

// the run's shared demo, copied: the reports and closes below write to the store
beforeAll(async () => {
  const demo = await sharedDemo();
  expect(demo.code, demo.stderr).toBe(1);
  const t = tempDir();
  dir = t.dir;
  cleanup = t.cleanup;
  db = copyDemo(demo, dir).db;
}, 300_000);
afterAll(() => cleanup());

type Row = Record<string, unknown>;

async function report(extra: string[]): Promise<ExcelJS.Workbook> {
  const reports = path.join(dir, `reports-${extra.length}`);
  const r = await runCliHere(['report', '--db', db, '--reports', reports, ...extra]);
  expect(r.code, r.stderr).toBe(1);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path.join(reports, 'recon-latest.xlsx'));
  return wb;
}

/** A table sheet's rows as objects keyed by its header row. */
function rowsOf(wb: ExcelJS.Workbook, name: string, headerRow = 1): Row[] {
  const sheet = wb.getWorksheet(name)!;
  const header = (sheet.getRow(headerRow).values as unknown[]).slice(1).map(String);
  const out: Row[] = [];
  sheet.eachRow((row, n) => {
    if (n <= headerRow) return;
    out.push(Object.fromEntries(header.map((h, i) => [h, row.getCell(i + 1).value])));
  });
  return out;
}

/** The Exceptions rows of one section (status × severity), roots only, in sheet order. */
function sections(rows: Row[]): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const r of rows) {
    if (r.Repeats === 'same cause as the line above' || r.Status === 'resolved') continue;
    const key = `${String(r.Status) === 'acknowledged' ? 'ack' : String(r.Status)}|${String(r.Severity)}`;
    out.set(key, [...(out.get(key) ?? []), r]);
  }
  return out;
}

describe('money at stake', () => {
  it('without rates: every finding with money carries its stake, ordered within each currency, the currencies never mixed', async () => {
    const wb = await report([]);
    const rows = rowsOf(wb, 'Exceptions');
    expect(rows.length).toBeGreaterThan(20);
    // the whole amount where the finding puts it in question (a credit on another account: difference 0)
    const other = rows.find((r) => r.Check === 'bank_account_mismatch')!;
    expect(other.Difference).toBe(0);
    expect(other['At stake']).toBe(other.Actual);
    const roots = rows.filter((r) => r.Repeats !== 'same cause as the line above');
    for (const r of roots.filter((x) => x.Check === 'currency_mismatch')) expect(Number(r['At stake'])).toBeGreaterThanOrEqual(Number(r.Actual));
    // a repeat's money is its root's, counted there once
    for (const r of rows.filter((x) => x.Repeats === 'same cause as the line above')) expect(r['At stake']).toBeNull();
    // counts are not money
    for (const r of rows.filter((x) => String(x.Check).startsWith('count_'))) expect(r['At stake']).toBeNull();
    expect(Object.keys(rows[0]!).some((h) => h.startsWith('At stake ('))).toBe(false);
    for (const [section, list] of sections(rows)) {
      // each currency's findings together (no currency, i.e. counts, last), the most at stake first within it
      const order = list.map((r) => (r.Currency as string | null) ?? '~');
      const groups = order.filter((c, i) => i === 0 || order[i - 1] !== c);
      expect(new Set(groups).size, `${section}: ${order.join(' ')}`).toBe(groups.length);
      expect([...groups].sort(), section).toEqual(groups);
      for (let i = 1; i < list.length; i++) {
        if (list[i]!.Currency !== list[i - 1]!.Currency || list[i]!.Currency === null) continue;
        expect(Number(list[i]!['At stake'] ?? 0), section).toBeLessThanOrEqual(Number(list[i - 1]!['At stake'] ?? 0));
      }
    }
    const summary = summaryCells(wb);
    expect(summary.get('Rates used')).toMatch(/^none \(--rates FILE\): amounts of different currencies are never added/);
    expect(summary.has('Total at stake now (USD)')).toBe(false);
  }, 120_000);

  it('with --rates: ordered by the converted stake within each status and severity, totalled in USD, the rates named', async () => {
    const file = path.join(dir, 'rates.csv');
    writeFileSync(file, `currency,rate_to_USD,as_of\n${Object.entries(RATES).filter(([c]) => c !== 'USD').map(([c, r]) => `${c},${r},2026-11-26`).join('\n')}\n`);
    const wb = await report(['--rates', file]);
    const rows = rowsOf(wb, 'Exceptions');
    for (const r of rows) {
      if (r['At stake'] === null || r.Currency === null) continue;
      expect(Number(r['At stake (USD)']), `${String(r.Check)} ${String(r.Currency)}`).toBeCloseTo(Number(r['At stake']) * RATES[String(r.Currency)]!, 1);
    }
    for (const [section, list] of sections(rows)) {
      const converted = list.filter((r) => r['At stake (USD)'] !== null).map((r) => Number(r['At stake (USD)']));
      expect(converted, section).toEqual([...converted].sort((a, b) => b - a));
      // the converted ones first; the rest (no money) after
      const firstUnconverted = list.findIndex((r) => r['At stake (USD)'] === null);
      if (firstUnconverted >= 0) expect(list.slice(firstUnconverted).every((r) => r['At stake (USD)'] === null), section).toBe(true);
    }
    // the bug of the issue: a VND stake of a few dollars never ranks above a KWD stake of hundreds by raw subunits
    const open = sections(rows).get('open|error') ?? [];
    const kwd = open.findIndex((r) => r.Currency === 'KWD' && Number(r['At stake (USD)']) > 100);
    const vnd = open.findIndex((r) => r.Currency === 'VND' && Number(r['At stake (USD)']) < 20);
    if (kwd >= 0 && vnd >= 0) expect(kwd).toBeLessThan(vnd);

    const summary = summaryCells(wb);
    expect(summary.get('Rates used')).toContain(`${file}: EUR 1.08 (2026-11-26)`);
    const table = stakeTable(wb);
    const total = table.reduce((n, r) => n + Number(r['At stake now (USD)'] ?? 0), 0);
    expect(Number(summary.get('Total at stake now (USD)'))).toBeCloseTo(total, 1);
    // at stake now per currency = the causes' money (each cause once) that needs a person, as the view and open_exceptions give it
    const stakes = await query(db, `SELECT currency, at_stake::BIGINT AS s FROM money_at_stake
      WHERE run_id = (SELECT run_id FROM check_runs ORDER BY checked_at DESC LIMIT 1)`);
    const fromView = await query(db, 'SELECT currency, sum(cause_stake)::BIGINT AS s FROM open_exceptions WHERE needs_person AND cause_stake IS NOT NULL GROUP BY ALL');
    expect(fromView.map((o) => [o.currency, o.s]).sort()).toEqual(stakes.map((o) => [o.currency, o.s]).sort());
    for (const s of stakes) {
      const row = table.find((r) => r['Money at stake by currency'] === s.currency)!;
      expect(Number(row['At stake now']), String(s.currency)).toBeCloseTo(Number(s.s) / currencyFactor(String(s.currency)), 3);
    }
  }, 120_000);

  it('refuses a rates file that is not strictly right, with exit 2 and the line', async () => {
    const bad = path.join(dir, 'bad-rates.csv');
    for (const [text, message] of [
      ['currency,rate,as_of\nEUR,1.08,2026-11-26\n', /header currency,rate_to_XXX,as_of/],
      ['currency,rate_to_USD,as_of\nEUR,1,08,2026-11-26\n', /line 2: expected 3 fields/],
      ['currency,rate_to_USD,as_of\neur,1.08,2026-11-26\n', /line 2: "eur" is not a currency code/],
      ['currency,rate_to_USD,as_of\nEUR,-1.08,2026-11-26\n', /line 2: rate "-1.08" of EUR is not a decimal/],
      ['currency,rate_to_USD,as_of\nEUR,1.08,2026-02-30\n', /line 2: as-of "2026-02-30"/],
      ['currency,rate_to_USD,as_of\nEUR,1.08,2026-11-26\nEUR,1.09,2026-11-26\n', /line 3: EUR is listed twice/],
      ['currency,rate_to_USD,as_of\nUSD,1.5,2026-11-26\n', /reporting currency; its rate must be 1/],
    ] as const) {
      writeFileSync(bad, text);
      const r = await runCliHere(['report', '--db', db, '--reports', path.join(dir, 'reports-bad'), '--rates', bad]);
      expect(r.code, text).toBe(2);
      expect(r.stderr, text).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 120_000);
});

describe('the bank in true words', () => {
  it('says the same thing in the Bank sheet, the bank_status view, the findings and the close', async () => {
    const wb = await report([]);
    const bank = rowsOf(wb, 'Bank');
    const view = await query(db, 'SELECT disbursement_id, bank_status, bank_difference, amount_major, bank_difference_major, currency FROM bank_status');
    const byId = new Map(view.map((v) => [String(v.disbursement_id), v]));
    expect(bank.length).toBe(view.length);
    for (const r of bank) {
      const v = byId.get(String(r.Disbursement))!;
      expect(String(r['Bank status'])).toMatch(new RegExp(`^${String(v.bank_status)}\\b`));
      if (v.bank_status === 'short' || v.bank_status === 'over') {
        const m = new RegExp(`^${String(v.bank_status)} by ([0-9.]+) ${String(v.currency)}$`).exec(String(r['Bank status']));
        expect(m, String(r['Bank status'])).not.toBeNull();
        expect(Number(m![1])).toBeCloseTo(Math.abs(Number(v.bank_difference_major)), 3);
      }
    }
    expect(bank.some((r) => r['Bank status'] === 'NOT ARRIVED')).toBe(false);
    // the planted cases: a credit short, a credit to another account, a credit that never came
    const findings = rowsOf(wb, 'Exceptions');
    const said = (check: string) => findings.filter((f) => f.Check === check).map((f) => ({ f, b: bank.find((r) => r.Disbursement === linkText(f.Disbursement))! }));
    const short = said('bank_amount_differs');
    expect(short.length).toBeGreaterThan(0);
    for (const { f, b } of short) {
      expect(String(b['Bank status'])).toMatch(/^(short|over) by /);
      expect(String(f.Detail).startsWith(`${String(b['Bank status'])}:`), `${String(f.Detail)} / ${String(b['Bank status'])}`).toBe(true);
    }
    for (const { f, b } of said('bank_account_mismatch')) {
      expect(b['Bank status']).toBe('on another account');
      expect(String(f.Detail)).toMatch(/^on another account: /);
    }
    for (const { f, b } of said('bank_missing_credit')) {
      expect(b['Bank status']).toBe('not arrived');
      expect(String(f.Detail)).toMatch(/^not arrived: /);
    }
    // every documented word, nothing else
    const words = new Set(view.map((v) => String(v.bank_status)));
    for (const w of words) expect(['settled', 'fee deducted', 'part of a batch credit', 'short', 'over', 'credited in another currency', 'on another account', 'awaiting statement', 'not arrived']).toContain(w);
  }, 120_000);
});

describe('one problem, one line', () => {
  it('folds a cause\'s repeats under its root: the root first with its count, the repeats just below it', async () => {
    const wb = await report([]);
    const rows = rowsOf(wb, 'Exceptions').filter((r) => r.Status !== 'resolved');
    const groups = await query(db, `SELECT finding_key, root_key, is_root, group_size FROM finding_groups
      WHERE run_id = (SELECT run_id FROM check_runs ORDER BY checked_at DESC LIMIT 1)`);
    expect(rows.length).toBe(groups.length); // the exceptions table stays one row per finding
    const folded = groups.filter((g) => Number(g.group_size) > 1);
    expect(folded.length).toBeGreaterThan(0);
    const byKey = new Map(groups.map((g) => [String(g.finding_key), g]));
    rows.forEach((r, i) => {
      const g = byKey.get(String(r.Key))!;
      if (g.is_root) {
        const n = Number(g.group_size);
        expect(r.Repeats).toBe(n === 1 ? null : `also reported ${n - 1} more time${n === 2 ? '' : 's'} (below)`);
        for (let k = 1; k < n; k++) {
          expect(rows[i + k]!.Repeats).toBe('same cause as the line above');
          expect(byKey.get(String(rows[i + k]!.Key))!.root_key).toBe(r.Key);
        }
      } else {
        expect(r.Repeats).toBe('same cause as the line above');
      }
    });
    // a missing payout once per file and its file's footers are one cause
    const causes = await query(db, `SELECT count(DISTINCT root_key) AS roots, count(*) AS findings FROM finding_groups
      WHERE run_id = (SELECT run_id FROM check_runs ORDER BY checked_at DESC LIMIT 1)`);
    expect(Number(causes[0]!.roots)).toBeLessThan(Number(causes[0]!.findings));
  }, 120_000);
});

describe('the close while money is unaccounted for', () => {
  it('is provisional over money not in the bank, and final only when a person accepts it by name with a note', async () => {
    const [m] = await query(db, `SELECT month_of(delivered_at) AS month FROM bank_status WHERE bank_status = 'not arrived' ORDER BY delivered_at LIMIT 1`);
    expect(m).toBeDefined();
    const month = String(m!.month);
    const reports = path.join(dir, 'close-reports');
    const first = await runCliHere(['close', '--month', month, '--db', db, '--reports', reports]);
    expect(first.code, first.stderr).toBe(1);
    expect(first.stdout).toMatch(/PROVISIONAL \(exit 1\): .*not arrived \(Bank\)/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(/→ (\S+)/.exec(first.stdout)![1]!);
    expect(String(wb.getWorksheet('Summary')!.getRow(7).getCell(2).value)).toMatch(/^Provisional: .*not arrived \(Bank\)/);
    const closeBank = rowsOf(wb, 'Bank');
    expect(closeBank.some((r) => r['Bank status'] === 'not arrived')).toBe(true);

    const usage = await runCliHere(['close', '--month', month, '--reissue', '--db', db, '--reports', reports, '--accept-unaccounted', '--note', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--accept-unaccounted needs --by NAME/);

    const accepted = await runCliHere(['close', '--month', month, '--reissue', '--db', db, '--reports', reports,
      '--accept-unaccounted', '--by', 'A. Accountant', '--note', 'trace requested from the provider, ticket FIN-27']);
    expect([0, 1]).toContain(accepted.code);
    expect(accepted.stdout).not.toMatch(/PROVISIONAL.*not arrived/);
    expect(accepted.stdout).toMatch(/accepted as unaccounted by A\. Accountant: .*not arrived/);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.readFile(/→ (\S+)/.exec(accepted.stdout)![1]!);
    expect(String(wb2.getWorksheet('Summary')!.getRow(7).getCell(2).value)).toMatch(/Accepted as unaccounted by A\. Accountant \("trace requested from the provider, ticket FIN-27"\): .*not arrived/);
    const [row] = await query(db, `SELECT accepted_by, accepted_note, accepted FROM closes WHERE month = '${month}' ORDER BY version DESC LIMIT 1`);
    expect(row).toMatchObject({ accepted_by: 'A. Accountant', accepted_note: 'trace requested from the provider, ticket FIN-27' });
    expect(String(row!.accepted)).toMatch(/not arrived/);
  }, 180_000);
});

describe('the books\' time zone', () => {
  it('closes the calendar month of the books\' zone: --books-tz moves a delivery late on the last day into the next month', async () => {
    // Pacific/Kiritimati is UTC+14 all year: a delivery after 10:00 UTC on a month's last day is the next month's
    const plus14 = (d: Date) => new Date(d.getTime() + 14 * 3_600_000).toISOString().slice(0, 7);
    const all = (await query(db, 'SELECT disbursement_id, delivered_at FROM disbursements')).map((r) => ({ id: String(r.disbursement_id), at: r.delivered_at as Date }));
    const utc = (d: Date) => d.toISOString().slice(0, 7);
    const moved = all.filter((d) => plus14(d.at) !== utc(d.at));
    expect(moved.length, 'the planted nights hold a delivery late on a month\'s last day').toBeGreaterThan(0);
    const month = plus14(moved[0]!.at);
    const expected = all.filter((d) => plus14(d.at) === month).map((d) => d.id).sort();
    expect(expected).not.toEqual(all.filter((d) => utc(d.at) === month).map((d) => d.id).sort());
    const reports = path.join(dir, 'tz-reports');
    const r = await runCliHere(['close', '--month', month, '--reissue', '--db', db, '--reports', reports, '--books-tz', 'Pacific/Kiritimati']);
    expect([0, 1], r.stderr).toContain(r.code);
    const [v] = await query(db, `SELECT max(version) AS v FROM closes WHERE month = '${month}'`);
    const ids = (await query(db, `SELECT disbursement_id FROM close_disbursements WHERE month = '${month}' AND version = ${Number(v!.v)} ORDER BY 1`)).map((x) => String(x.disbursement_id));
    expect(ids).toEqual(expected);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(/→ (\S+)/.exec(r.stdout)![1]!);
    expect(wb.getWorksheet('Summary')!.getRow(3).getCell(2).value).toBe(`${month} (delivered_at in Pacific/Kiritimati)`);
    const bad = await runCliHere(['close', '--month', month, '--reissue', '--db', db, '--reports', reports, '--books-tz', 'Mars/Olympus']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--books-tz .*not an IANA time zone/);
  }, 180_000);
});

/** The Summary's label → value pairs (column A → B). */
function summaryCells(wb: ExcelJS.Workbook): Map<string, unknown> {
  const out = new Map<string, unknown>();
  wb.getWorksheet('Summary')!.eachRow((row) => {
    const label = row.getCell(1).value;
    if (typeof label === 'string') out.set(label, row.getCell(2).value);
  });
  return out;
}

/** The Summary's money-at-stake table. */
function stakeTable(wb: ExcelJS.Workbook): Row[] {
  const sheet = wb.getWorksheet('Summary')!;
  let header = 0;
  sheet.eachRow((row, n) => {
    if (row.getCell(1).value === 'Money at stake by currency') header = n;
  });
  expect(header).toBeGreaterThan(0);
  const names = (sheet.getRow(header).values as unknown[]).slice(1).map(String);
  const out: Row[] = [];
  for (let n = header + 1; ; n++) {
    const cur = sheet.getRow(n).getCell(1).value;
    if (typeof cur !== 'string' || !/^[A-Z]{3}$/.test(cur)) break;
    out.push(Object.fromEntries(names.map((h, i) => [h, sheet.getRow(n).getCell(i + 1).value])));
  }
  return out;
}

/** A link cell's text (the Disbursement column links to its row). */
function linkText(v: unknown): unknown {
  return v !== null && typeof v === 'object' && 'text' in v ? (v as { text: unknown }).text : v;
}

describe('the close\'s open findings', () => {
  it('groups them by cause, the cause\'s money once on its root, each with its acknowledgement history in words', async () => {
    // the months of UTC, as the close below counts them (the test above left the books in another zone)
    await query(db, `UPDATE books_settings SET tz = 'UTC'`);
    // the month with the most findings folded under a root
    const [m] = await query(db, `SELECT month_of(d.delivered_at) AS month, count(*) AS n FROM open_exceptions AS o
      JOIN disbursements AS d ON d.disbursement_id = o.disbursement_id
      WHERE o.cause IN (SELECT cause FROM open_exceptions GROUP BY cause HAVING count(*) > 1) GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1`);
    expect(m, 'the planted nights hold a cause reported more than once').toBeDefined();
    const month = String(m!.month);
    const open = await query(db, `SELECT o.finding_key, o.cause, o.is_root, o.cause_stake_major FROM open_exceptions AS o
      WHERE o.disbursement_id IS NULL OR o.disbursement_id IN (SELECT disbursement_id FROM disbursements WHERE month_of(delivered_at) = '${month}')`);
    const byKey = new Map(open.map((o) => [String(o.finding_key), o]));
    // a finding acknowledged, withdrawn and acknowledged again: its whole history, latest first
    const key = String(open.find((o) => o.is_root)!.finding_key);
    for (const args of [['--note', 'looks like the file, asked the provider'], ['--withdraw', '--note', 'the provider says no'],
      ['--note', 'booked by hand, ticket FIN-31']]) {
      const a = await runCliHere(['ack', key, '--db', db, '--by', 'A. Accountant', ...args]);
      expect(a.code, a.stderr).toBe(0);
    }
    const r = await runCliHere(['close', '--month', month, '--reissue', '--db', db, '--reports', path.join(dir, 'findings-close')]);
    expect([0, 1], r.stderr).toContain(r.code);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(/→ (\S+)/.exec(r.stdout)![1]!);
    const rows = rowsOf(wb, 'Open findings');
    expect(rows.map((x) => String(x.Key)).sort()).toEqual([...byKey.keys()].sort());
    let lead: Row | null = null;
    let folded = 0;
    for (const row of rows) {
      const o = byKey.get(String(row.Key))!;
      if (row.Repeats === 'same cause as the line above') {
        folded += 1;
        expect(row['At stake'], String(row.Key)).toBeNull();
        expect(o.cause).toBe(byKey.get(String(lead!.Key))!.cause);
      } else {
        lead = row;
        if (o.is_root && o.cause_stake_major !== null) expect(row['At stake']).toBeCloseTo(Number(o.cause_stake_major), 3);
      }
    }
    expect(folded).toBeGreaterThan(0);
    const acked = rows.find((x) => x.Key === key)!;
    expect(String(acked['Acknowledgement history'])).toMatch(new RegExp('^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC acknowledged by A\\. Accountant: '
      + 'booked by hand, ticket FIN-31; .* UTC withdrawn by A\\. Accountant: the provider says no; .* UTC acknowledged by A\\. Accountant: '
      + 'looks like the file, asked the provider$'));
  }, 180_000);
});
