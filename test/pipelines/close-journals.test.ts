// Journal files a ledger can post, per format (`recon close` in-process on a store of exact amounts): each
// file read back with the column names of its vendor's template, balanced per journal and currency, JPY, VND,
// KWD and BHD at their ISO 4217 decimals (or refused by a ledger that holds fewer), every line on the chart of
// accounts' code and name, nothing provisional postable, a reissue's files (earlier versions, reversals, the
// latest) netting to the latest version per account and currency, and a role the chart misses stopping the
// close with exit 2.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { isoMinorUnits, parseMajor } from '../../src/money.js';
import { DEMO_CHART } from '../../pipelines/demo.js';
import { writeMonthsStore, type Line } from '../helpers/months-store.js';
import { runCliHere } from '../helpers/in-process.js';
import { query, tempDirForFile } from '../helpers/recon.js';

const MONTH = '2026-03';
const FORMATS = ['generic', 'quickbooks', 'xero', 'netsuite'] as const;
type Format = (typeof FORMATS)[number];

// the import templates as each vendor's documentation gives them (docs/close-and-journal.md cites the pages)
const TEMPLATE: Record<Format, string[]> = {
  generic: ['Journal', 'Date', 'Currency', 'Role', 'Code', 'Account', 'Description', 'Debit', 'Credit'],
  quickbooks: ['Journal No.', 'Journal Date', 'Account Name', 'Description', 'Debits', 'Credits', 'Name'],
  xero: ['*Narration', '*Date', 'Description', '*AccountCode', '*TaxRate', '*Amount', 'TrackingName1', 'TrackingOption1',
    'TrackingName2', 'TrackingOption2'],
  netsuite: ['External ID', 'Date', 'Subsidiary', 'Currency', 'Account', 'Debit', 'Credit', 'Memo'],
};

// exact amounts (subunits): VND counts tenths (331776790.7 paid, 0.3 refunded), KWD and BHD thousandths, MGA fifths
const LINES: Line[] = [
  { id: 'dsb_eur', month: MONTH, currency: 'EUR', payouts: ['12345', '678'] },
  { id: 'dsb_usd', month: MONTH, currency: 'USD', payouts: ['100001'] },
  { id: 'dsb_jpy', month: MONTH, currency: 'JPY', payouts: ['123456'] },
  { id: 'dsb_vnd', month: MONTH, currency: 'VND', payouts: ['3317767907'] },
  { id: 'dsb_kwd', month: MONTH, currency: 'KWD', payouts: ['1234567'] },
  { id: 'dsb_bhd', month: MONTH, currency: 'BHD', payouts: ['1005'] },
  { id: 'dsb_mga', month: MONTH, currency: 'MGA', payouts: ['6'] },
];

const folder = tempDirForFile('recon-journals-');
let db: string;
let reports: string;
let chart: string;

beforeAll(async () => {
  ({ db } = await writeMonthsStore(folder.dir, LINES));
  await refund('dsb_vnd', 3n);
  await refund('dsb_eur', 45n);
  reports = path.join(folder.dir, 'reports');
  chart = path.join(folder.dir, 'accounts.csv');
  writeFileSync(chart, DEMO_CHART);
}, 60_000);

/** A refund on a disbursement, its total lowered by as much (the total identity holds: no variance). */
async function refund(id: string, amount: bigint): Promise<void> {
  await query(db, `INSERT INTO refunds (disbursement_id, line_no, refund_id, payment_id, currency, amount, run_id, raw, occurrence)
    SELECT disbursement_id, 1, 'rf_' || disbursement_id, 'pay_rf', currency, ${amount}, 'seed-run', '{}', 1 FROM disbursements
    WHERE disbursement_id = '${id}';
    UPDATE disbursements SET amount = amount - ${amount}, number_of_refunds = 1 WHERE disbursement_id = '${id}'`);
}

const close = (...extra: string[]) => runCliHere(['close', '--month', MONTH, '--db', db, '--reports', reports, '--log-level', 'error', ...extra]);
const allFormats = ['--journal-format', FORMATS.join(','), '--accounts'];

type Row = Record<string, string>;
const csv = (file: string): Row[] => parse(readFileSync(file, 'utf8'), { columns: true, bom: true }) as Row[];
const headerOf = (file: string) => readFileSync(file, 'utf8').split('\r\n')[0]!.split(',');
const journalFiles = () => readdirSync(reports).filter((f) => f.endsWith('.csv')).sort();

/** What a file's line books: the account as the format names it, and the amount (debit positive), exact. */
function postings(format: Format, file: string): Array<{ journal: string; account: string; currency: string; amount: bigint; text: string }> {
  const currency = /-([A-Z]{3})(-reversal-of-v\d+)?\.csv$/.exec(file)![1]!;
  const money = (t: string | undefined) => (t === undefined || t === '' ? 0n : parseMajor(t, currency)!);
  return csv(file).map((r) => {
    switch (format) {
      case 'generic': return { journal: r.Journal!, account: `${r.Code} ${r.Account}`, currency, amount: money(r.Debit) - money(r.Credit), text: r.Description! };
      case 'quickbooks': return { journal: r['Journal No.']!, account: r['Account Name']!, currency, amount: money(r.Debits) - money(r.Credits),
        text: r.Description! };
      case 'xero': return { journal: `${r['*Narration']} ${r['*Date']}`, account: r['*AccountCode']!, currency, amount: money(r['*Amount']),
        text: `${r['*Narration']} | ${r.Description}` };
      case 'netsuite': return { journal: r['External ID']!, account: r.Account!, currency, amount: money(r.Debit) - money(r.Credit), text: r.Memo! };
    }
  });
}

/** Every amount field of a file, as written. */
function amountTexts(format: Format, file: string): string[] {
  const fields: Record<Format, string[]> = { generic: ['Debit', 'Credit'], quickbooks: ['Debits', 'Credits'], xero: ['*Amount'], netsuite: ['Debit', 'Credit'] };
  return csv(file).flatMap((r) => fields[format].map((f) => r[f]!)).filter((t) => t !== '');
}

/** Per account and currency, what the files book. */
function net(format: Format, files: string[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const f of files) {
    for (const p of postings(format, path.join(reports, f))) out.set(`${p.account}|${p.currency}`, (out.get(`${p.account}|${p.currency}`) ?? 0n) + p.amount);
  }
  for (const [k, v] of out) if (v === 0n) out.delete(k);
  return out;
}

const ofFormat = (format: Format) => (f: string) => new RegExp(`-${format}-[A-Z]{3}(-reversal-of-v\\d+)?\\.csv$`).test(f);

describe('a ledger\'s journal file needs the chart of accounts', () => {
  it('refuses quickbooks, xero and netsuite without --accounts, saying how to write the file, before the close starts', async () => {
    const r = await close('--journal-format', 'generic,xero');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--journal-format xero needs your chart of accounts: --accounts FILE \(or RECON_ACCOUNTS\), a CSV with the header role,currency,code,name/);
    expect(r.stderr).toMatch(/bank, cash_in_transit, bank_suspense, bank_charges, refunds, fees, clearing, credit_adjustments, suspense, rounding/);
    expect(await query(db, 'SELECT * FROM closes')).toEqual([]);
    expect(existsSync(reports) ? readdirSync(reports) : []).toEqual([]);
  });

  it('stops the close with exit 2 naming a role and currency the chart does not map; nothing is written', async () => {
    const partial = path.join(folder.dir, 'partial.csv');
    writeFileSync(partial, DEMO_CHART.split('\n').filter((l) => !l.startsWith('clearing,')).join('\n'));
    const r = await close(...allFormats, partial);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/no account for the journal role clearing in BHD \(recon's "Payments clearing"\); add a line clearing,BHD,<code>,<name> or clearing,\*,<code>,<name>/);
    expect(await query(db, 'SELECT * FROM closes')).toEqual([]);
    expect(existsSync(reports) ? readdirSync(reports) : []).toEqual([]);
    // Xero imports codes: an account the chart names without one is refused naming its line
    const noCode = path.join(folder.dir, 'no-code.csv');
    writeFileSync(noCode, DEMO_CHART.replace('bank,*,1010,Operating bank', 'bank,*,,Operating bank'));
    const x = await close('--journal-format', 'xero', '--accounts', noCode);
    expect(x.code).toBe(2);
    expect(x.stderr).toMatch(/--accounts \S+no-code\.csv line 2: bank in \* has no code, and Xero's manual journal import takes account codes/);
  });
});

describe('the journal files of a final close', () => {
  let out: Awaited<ReturnType<typeof close>>;
  beforeAll(async () => {
    out = await close(...allFormats, chart);
  }, 60_000);

  it('is final, writes every format for every currency a ledger can hold, and says which it cannot', () => {
    expect(out.code, out.stderr).toBe(0);
    const files = journalFiles();
    for (const currency of ['EUR', 'USD', 'JPY', 'VND', 'MGA']) {
      for (const format of FORMATS) expect(files).toContain(`close-${MONTH}-${format}-${currency}.csv`);
    }
    // three decimals: only the generic file; QuickBooks, Xero and NetSuite hold two
    for (const currency of ['KWD', 'BHD']) {
      expect(files.filter((f) => f.endsWith(`-${currency}.csv`))).toEqual([`close-${MONTH}-generic-${currency}.csv`]);
      for (const title of ['QuickBooks', 'Xero', 'NetSuite']) {
        expect(out.stdout).toContain(`journal not written: ${currency} has 3 decimals (ISO 4217) and the ${title} journal import holds 2`);
      }
    }
    expect(files.some((f) => /PROVISIONAL/.test(f))).toBe(false);
  });

  it('reads back with the columns of each vendor\'s template, one journal number per file, balanced per currency', () => {
    for (const file of journalFiles()) {
      const format = FORMATS.find((f) => ofFormat(f)(file))!;
      expect(headerOf(path.join(reports, file)), file).toEqual(TEMPLATE[format]);
      const lines = postings(format, path.join(reports, file));
      expect(new Set(lines.map((l) => l.journal)).size, file).toBe(1);
      expect(lines.reduce((s, l) => s + l.amount, 0n), file).toBe(0n);
      expect(lines.every((l) => l.amount !== 0n && !/PROVISIONAL/.test(l.text)), file).toBe(true);
    }
    const qbo = csv(path.join(reports, `close-${MONTH}-quickbooks-EUR.csv`));
    expect(new Set(qbo.map((r) => `${r['Journal No.']} ${r['Journal Date']}`))).toEqual(new Set([`recon-${MONTH}-1-EUR 03/31/2026`]));
    expect(qbo.every((r) => (r.Debits === '') !== (r.Credits === ''))).toBe(true);
    const xero = csv(path.join(reports, `close-${MONTH}-xero-EUR.csv`));
    expect(xero.every((r) => r['*Date'] === '31 Mar 2026' && r['*TaxRate'] === 'Tax Exempt')).toBe(true);
  });

  it('writes JPY, VND and MGA at their ISO 4217 decimals, KWD and BHD at three, VND balanced on its rounding line', () => {
    for (const file of journalFiles()) {
      const format = FORMATS.find((f) => ofFormat(f)(file))!;
      const currency = /-([A-Z]{3})\.csv$/.exec(file)![1]!;
      const d = isoMinorUnits(currency);
      for (const t of amountTexts(format, path.join(reports, file))) expect(t, `${file} ${t}`).toMatch(d === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${d}}$`));
    }
    const vnd = csv(path.join(reports, `close-${MONTH}-generic-VND.csv`));
    // 331776790.4 received, 331776790.7 paid out, 0.3 refunded: whole dong on each line, the dong left on rounding
    expect(vnd.map((r) => [r.Role, r.Code, r.Debit, r.Credit])).toEqual([
      ['bank', '1010', '331776790', ''], ['clearing', '1150', '', '331776791'], ['rounding', '6990', '1', ''],
    ]);
    expect(csv(path.join(reports, `close-${MONTH}-generic-KWD.csv`)).map((r) => r.Debit || r.Credit)).toEqual(['1234.567', '1234.567']);
    expect(csv(path.join(reports, `close-${MONTH}-generic-BHD.csv`)).map((r) => r.Debit || r.Credit)).toEqual(['1.005', '1.005']);
    expect(csv(path.join(reports, `close-${MONTH}-netsuite-JPY.csv`)).map((r) => r.Debit || r.Credit)).toEqual(['123456', '123456']);
    expect(csv(path.join(reports, `close-${MONTH}-quickbooks-MGA.csv`)).map((r) => r.Debits || r.Credits)).toEqual(['1.20', '1.20']);
  });

  it('posts every line of every format to the chart\'s account: the currency\'s own line first, else the role\'s *', async () => {
    const expected = (currency: string, role: string) => {
      const lines = DEMO_CHART.split('\n');
      const line = lines.find((l) => l.startsWith(`${role},${currency},`)) ?? lines.find((l) => l.startsWith(`${role},*,`))!;
      const [, , code, name] = line.split(',');
      return { code: code!, name: name! };
    };
    for (const currency of ['EUR', 'USD', 'VND']) {
      const generic = csv(path.join(reports, `close-${MONTH}-generic-${currency}.csv`));
      for (const [i, g] of generic.entries()) {
        const a = expected(currency, g.Role!);
        expect([g.Code, g.Account]).toEqual([a.code, a.name]);
        expect(csv(path.join(reports, `close-${MONTH}-quickbooks-${currency}.csv`))[i]!['Account Name']).toBe(a.name);
        expect(csv(path.join(reports, `close-${MONTH}-xero-${currency}.csv`))[i]!['*AccountCode']).toBe(a.code);
        expect(csv(path.join(reports, `close-${MONTH}-netsuite-${currency}.csv`))[i]!.Account).toBe(`${a.code} ${a.name}`);
      }
    }
    expect(csv(path.join(reports, `close-${MONTH}-xero-USD.csv`))[0]!['*AccountCode']).toBe('1020');
    // the workbook's Journal says the same: each line's role, code and account
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(reports, `close-${MONTH}.xlsx`));
    const sheet = wb.getWorksheet('Journal')!;
    expect((sheet.getRow(1).values as unknown[]).slice(7)).toEqual(['Role', 'Code', 'Account in your books']);
    const rows: unknown[][] = [];
    sheet.eachRow((row, n) => { if (n > 1 && row.getCell(1).value === 'USD' && row.getCell(7).value) rows.push([row.getCell(7).value, row.getCell(8).value]); });
    expect(rows).toEqual([['bank', '1020'], ['clearing', '1150']]);
  });
});

describe('a reissue reverses, and nothing provisional is postable', () => {
  const latestOnly = (format: Format, version: number) => journalFiles().filter(ofFormat(format))
    .filter((f) => !/-reversal-of-v\d+\.csv$/.test(f) && (version === 1 ? !/-v\d+-/.test(f) : f.includes(`-v${version}-`)));

  it('writes, per format and currency, the reversal of v1 and the whole v2: every file ever written nets to v2', async () => {
    // the month changes: EUR gains a payout, the MGA disbursement goes, JPY is restated
    await query(db, `INSERT INTO payouts (disbursement_id, line_no, recipient_id, reference, status, payment_id, currency, amount, run_id, raw, occurrence)
      VALUES ('dsb_eur', 3, 'rcp_1', 'po_late', 'paid', 'pay_late', 'EUR', 1000, 'seed-run', '{}', 1);
      UPDATE disbursements SET amount = amount + 1000 WHERE disbursement_id = 'dsb_eur';
      DELETE FROM payouts WHERE disbursement_id = 'dsb_mga'; DELETE FROM disbursements WHERE disbursement_id = 'dsb_mga';
      UPDATE payouts SET amount = 123000 WHERE disbursement_id = 'dsb_jpy'; UPDATE disbursements SET amount = 123000 WHERE disbursement_id = 'dsb_jpy'`);
    const r = await close('--reissue', ...allFormats, chart);
    expect(r.code, r.stderr).toBe(0);
    for (const format of FORMATS) {
      for (const currency of ['EUR', 'USD', 'JPY', 'VND', 'MGA']) {
        const reversal = `close-${MONTH}-v2-${format}-${currency}-reversal-of-v1.csv`;
        expect(journalFiles(), reversal).toContain(reversal);
        // its journal number references v1's; its lines are v1's with debits and credits swapped
        const lines = postings(format, path.join(reports, reversal));
        const v1 = postings(format, path.join(reports, `close-${MONTH}-${format}-${currency}.csv`));
        expect(lines.map((l) => [l.account, l.amount])).toEqual(v1.map((l) => [l.account, -l.amount]));
        if (format !== 'xero') expect(lines[0]!.journal).toBe(`recon-${MONTH}-1R-${currency}`);
        if (format !== 'xero') expect(lines.every((l) => l.text.startsWith(`Reversal of recon-${MONTH}-1-${currency}: `))).toBe(true);
      }
      expect(journalFiles()).not.toContain(`close-${MONTH}-v2-${format}-MGA.csv`);
      const everything = journalFiles().filter(ofFormat(format));
      expect(net(format, everything), format).toEqual(net(format, latestOnly(format, 2)));
      expect(net(format, latestOnly(format, 2)).get(format === 'xero' ? '1150|EUR' : format === 'quickbooks' ? 'Payments clearing|EUR'
        : format === 'netsuite' ? '1150 Payments clearing|EUR' : '1150 Payments clearing|EUR')).toBe(-(12345n + 678n + 1000n));
    }
    const recorded = await query(db, `SELECT kind, count(*) AS n FROM close_journal_files WHERE month = '${MONTH}' AND version = 2 GROUP BY kind ORDER BY kind`);
    expect(recorded.map((x) => [x.kind, Number(x.n)])).toEqual([['entry', 4 * 4 + 2], ['reversal', 4 * 5 + 2]]);
  });

  it('a provisional close writes nothing postable; with --provisional-journal every name and line says PROVISIONAL', async () => {
    await query(db, `UPDATE disbursements SET amount = amount + 7 WHERE disbursement_id = 'dsb_usd'`); // a variance: provisional
    const before = journalFiles();
    const r3 = await close('--reissue', ...allFormats, chart);
    expect(r3.code, r3.stderr).toBe(1);
    expect(r3.stdout).toMatch(/journal not written: the close is provisional: no journal file is written \(nothing provisional is postable\); --provisional-journal/);
    expect(journalFiles()).toEqual(before);

    const r4 = await close('--reissue', '--provisional-journal', ...allFormats, chart);
    expect(r4.code).toBe(1);
    const v4 = journalFiles().filter((f) => f.includes('-v4-'));
    expect(v4.length).toBeGreaterThan(0);
    for (const file of v4) {
      expect(file).toMatch(new RegExp(`^close-${MONTH}-v4-PROVISIONAL-`));
      const format = FORMATS.find((f) => ofFormat(f)(file))!;
      expect(headerOf(path.join(reports, file))).toEqual(TEMPLATE[format]);
      expect(postings(format, path.join(reports, file)).every((l) => /PROVISIONAL/.test(l.text)), file).toBe(true);
    }
    // v3 wrote nothing: v4 reverses v2, the entry still standing
    expect(v4).toContain(`close-${MONTH}-v4-PROVISIONAL-quickbooks-EUR-reversal-of-v2.csv`);

    // corrected, the next close is final: it reverses the provisional v4 and says nothing provisional itself
    await query(db, `UPDATE disbursements SET amount = amount - 7 WHERE disbursement_id = 'dsb_usd'`);
    const r5 = await close('--reissue', ...allFormats, chart);
    expect(r5.code, r5.stderr).toBe(0);
    const v5 = journalFiles().filter((f) => f.includes('-v5-'));
    expect(v5).toContain(`close-${MONTH}-v5-quickbooks-USD-reversal-of-v4.csv`);
    for (const file of v5) {
      const format = FORMATS.find((f) => ofFormat(f)(file))!;
      expect(file).not.toMatch(/PROVISIONAL/);
      expect(postings(format, path.join(reports, file)).some((l) => /PROVISIONAL/.test(l.text)), file).toBe(false);
    }
    for (const format of FORMATS) expect(net(format, journalFiles().filter(ofFormat(format))), format).toEqual(net(format, latestOnly(format, 5)));
  });
});
