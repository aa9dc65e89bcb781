// acceptance, the close on a sandbox month with bank statements (every role the bank brings: bank charges,
// bank suspense, cash in transit): `recon close --journal-format` writes the month's Journal as each ledger's
// import CSV, one file per currency; read back with csv-parse, every file balances exactly and its totals are
// the close workbook's. The mail and the alert follow the close; the chart of accounts is read strictly first.
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../../pipelines/config.js';
import { silentLogger } from '../../../src/log.js';
import { isoMinorUnits, parseMajor } from '../../../src/money.js';
import { parseChartOfAccounts } from '../../../src/close/chart.js';
import { NotifyDocument } from '../../../src/outlets/notify-schema.js';
import { writeStatements } from '../../../sandbox/statements.js';
import { startSandbox, type Sandbox } from '../../../sandbox/index.js';
import { runClose, type CloseOutcome } from '../../../pipelines/monthly-close.js';
import { tempDir, tempDirForFile } from '../../helpers/recon.js';
import { nightlyOnce } from '../../helpers/nightly.js';
import { mimePart, startReceiver, startSmtp, subjectOf, type Receiver, type SmtpStub } from '../../helpers/outlets.js';
import { filesContaining } from '../../helpers/whole-store.js';

const MONTH = '2026-09';
const KEY = 'sk_live_CLOSE_k3y_77';
const folder = tempDirForFile('recon-close-outlets-');
let sb: Sandbox;
let smtp: SmtpStub;
let hooks: Receiver;
let out: CloseOutcome;

beforeAll(async () => {
  sb = await startSandbox({ seed: 12, disbursements: 160, payoutsPerDisbursement: 10, rateLimit: { limit: 1_000_000 }, apiKey: KEY,
    anomalies: { plant: [{ index: 130, kind: 'restated' }] } });
  const dir = folder.dir;
  smtp = await startSmtp({});
  hooks = await startReceiver();
  const statements = path.join(dir, 'statements');
  await writeStatements(sb.truth, statements); // bank lines in the journal: Bank, Bank charges, Bank suspense
  expect((await nightlyOnce(sb, dir, ['--bank-dir', statements])).outcome.code).toBeLessThanOrEqual(1);
  const accounts = path.join(dir, 'accounts.csv');
  writeFileSync(accounts, ['role,currency,code,name', 'bank,*,1010,Operating bank', 'bank,USD,1020,Bank USD',
    'cash_in_transit,*,1090,Cash in transit', 'bank_suspense,*,1095,Bank suspense', 'bank_charges,*,6810,Bank charges',
    'refunds,*,4090,Refunds', 'fees,*,6820,Processing fees', 'clearing,*,1150,"Payments clearing, cards"',
    'credit_adjustments,*,4095,Payment adjustments', 'suspense,*,1199,Reconciliation suspense', 'rounding,*,6990,Rounding', ''].join('\n'));
  // the planted month may be provisional: --provisional-journal writes its files anyway, marked so
  const { config } = parseCommandArgs(['--db', path.join(dir, 'recon.duckdb'), '--reports', path.join(dir, 'reports'),
    '--journal-format', 'generic,quickbooks,xero,netsuite', '--accounts', accounts, '--provisional-journal',
    '--xero-tax-rate', 'No VAT', '--netsuite-subsidiary', 'Parent Company',
    '--mail-to', 'controller@example.com', '--smtp-url', `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, '--notify-url', `${hooks.url}/close`],
  ['db', 'reports', 'journalFormat', 'accounts', 'provisionalJournal', 'xeroTaxRate', 'netsuiteSubsidiary', 'mailTo', 'smtpUrl', 'notifyUrl'], {}, {});
  out = await runClose(config, silentLogger, { month: MONTH, reissue: false, handleSignals: false });
}, 180_000);
afterAll(async () => {
  await Promise.all([sb?.close(), smtp?.close(), hooks?.close()]);
});

/** The Journal sheet's Total rows: debit and credit per currency, as the workbook computed them (subunits). */
async function workbookTotals(file: string): Promise<Map<string, { debit: bigint; credit: bigint; lines: number }>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const totals = new Map<string, { debit: bigint; credit: bigint; lines: number }>();
  const amount = (v: ExcelJS.CellValue, currency: string) => {
    const n = typeof v === 'object' && v !== null && 'result' in v ? v.result : v;
    return typeof n === 'number' ? parseMajor(String(n), currency)! : 0n;
  };
  wb.getWorksheet('Journal')!.eachRow((row, n) => {
    const currency = String(row.getCell(1).value);
    if (n === 1) return;
    const t = totals.get(currency) ?? { debit: 0n, credit: 0n, lines: 0 };
    if (String(row.getCell(2).value).startsWith('Total ')) {
      t.debit = amount(row.getCell(4).value, currency);
      t.credit = amount(row.getCell(5).value, currency);
    } else if (row.getCell(4).value !== null || row.getCell(5).value !== null) {
      t.lines += 1;
    }
    totals.set(currency, t);
  });
  return totals;
}

type Row = Record<string, string>;
const csv = (file: string): Row[] => parse(readFileSync(file, 'utf8'), { columns: true, bom: true, strict: true } as never) as Row[];

/** The file of a format and currency beside the workbook (marked PROVISIONAL when the close is). */
const fileOf = (format: string, currency: string) => {
  const base = out.workbook!.replace(/\.xlsx$/, '');
  return `${base}${out.provisional.length > 0 ? '-PROVISIONAL' : ''}-${format}-${currency}.csv`;
};
/** Currencies a ledger holds at two decimals (QuickBooks, Xero and NetSuite refuse KWD's three). */
const twoDecimals = (currency: string) => isoMinorUnits(currency) <= 2;

describe('the close journal for the ledger', () => {
  it('closes the month as without outlets, and writes four formats for every currency of the Journal a ledger holds', async () => {
    expect(out.code).toBeLessThanOrEqual(1);
    expect(out.outlets!.warnings).toEqual([]);
    const totals = await workbookTotals(out.workbook!);
    expect([...totals.keys()]).toEqual(expect.arrayContaining(['EUR', 'JPY', 'KWD', 'USD']));
    expect([...totals.values()].every((t) => t.debit > 0n && t.lines >= 3)).toBe(true);
    const held = [...totals.keys()].filter(twoDecimals).length;
    expect(out.journalFiles).toHaveLength(totals.size + 3 * held);
    expect(out.journalNotes).toEqual(expect.arrayContaining([expect.stringMatching(/^KWD has 3 decimals \(ISO 4217\) and the Xero journal import holds 2/)]));
  });

  it('every file, read back with csv-parse, balances exactly and totals what the workbook\'s Journal totals', async () => {
    const totals = await workbookTotals(out.workbook!);
    const marked = out.provisional.length > 0;
    for (const [currency, t] of totals) {
      const cents = (text: string) => (text === '' ? 0n : parseMajor(text, currency)!);
      const check = (format: string, debit: bigint, credit: bigint, rows: Row[]) => {
        expect(debit, `${format} ${currency}`).toBe(credit);
        expect(debit, `${format} ${currency}`).toBe(t.debit);
        expect(rows.length, `${format} ${currency}`).toBe(t.lines);
      };
      const generic = csv(fileOf('generic', currency));
      check('generic', generic.reduce((s, r) => s + cents(r.Debit!), 0n), generic.reduce((s, r) => s + cents(r.Credit!), 0n), generic);
      expect(new Set(generic.map((r) => `${r.Journal} ${r.Date} ${r.Currency}`))).toEqual(new Set([`recon-${MONTH}-1-${currency} 2026-09-30 ${currency}`]));
      expect(generic.every((r) => /PROVISIONAL/.test(r.Description!) === marked)).toBe(true);
      // a name holding the CSV's own separator is quoted, never split
      expect(generic.find((r) => r.Role === 'clearing')!.Account).toBe('Payments clearing, cards');
      if (!twoDecimals(currency)) continue;

      const qbo = csv(fileOf('quickbooks', currency));
      check('quickbooks', qbo.reduce((s, r) => s + cents(r.Debits!), 0n), qbo.reduce((s, r) => s + cents(r.Credits!), 0n), qbo);
      expect(qbo.every((r) => r['Journal Date'] === '09/30/2026' && (r.Debits === '') !== (r.Credits === ''))).toBe(true);

      const xero = csv(fileOf('xero', currency));
      const amounts = xero.map((r) => cents(r['*Amount']!));
      check('xero', amounts.filter((a) => a > 0n).reduce((s, a) => s + a, 0n), -amounts.filter((a) => a < 0n).reduce((s, a) => s + a, 0n), xero);
      expect(xero.every((r) => r['*Date'] === '30 Sep 2026' && r['*TaxRate'] === 'No VAT'
        && r['*Narration'] === `${marked ? 'PROVISIONAL ' : ''}recon close ${MONTH} v1 ${currency}`)).toBe(true);

      const ns = csv(fileOf('netsuite', currency));
      check('netsuite', ns.reduce((s, r) => s + cents(r.Debit!), 0n), ns.reduce((s, r) => s + cents(r.Credit!), 0n), ns);
      expect(ns.every((r) => r.Subsidiary === 'Parent Company' && r.Currency === currency)).toBe(true);

      // the chart: the currency's own line first, then the role's *
      const bank = qbo.find((r) => r.Description!.includes('Settled: disbursements received'))!;
      expect(bank['Account Name']).toBe(currency === 'USD' ? 'Bank USD' : 'Operating bank');
      expect(xero.find((r) => r.Description!.includes('Settled: disbursements received'))!['*AccountCode']).toBe(currency === 'USD' ? '1020' : '1010');
    }
  });

  it('mails the close with its workbook and posts its document; the key is in none of the files', async () => {
    expect(smtp.mails).toHaveLength(1);
    expect(subjectOf(smtp.mails[0]!.raw)).toMatch(new RegExp(`^recon close ${MONTH} v1: (final|PROVISIONAL)`));
    expect(mimePart(smtp.mails[0]!.raw, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')!.equals(readFileSync(out.workbook!))).toBe(true);
    const text = mimePart(smtp.mails[0]!.raw, 'text/plain')!.toString();
    expect(text).toMatch(/Journal \(balanced per currency\)\n\s+[A-Z]{3}: debits [\d.]+ = credits [\d.]+/);
    expect(text).toMatch(/Journal files not written\n\s+- KWD has 3 decimals/);
    const doc = NotifyDocument.parse(JSON.parse(hooks.received[0]!.body));
    expect(doc).toMatchObject({ kind: 'close', run_id: out.runId, close: { month: MONTH, version: 1 } });
    expect(doc.close!.journal_files).toEqual(out.journalFiles);
    expect(filesContaining(path.join(folder.dir, 'reports'), KEY)).toEqual([]);
  });
});

describe('the chart of accounts', () => {
  const chart = (...lines: string[]) => ['role,currency,code,name', ...lines].join('\n');
  it('is read strictly: every mistake refused naming its line', () => {
    const refused: Array<[string, RegExp]> = [
      ['role,currency,account\nbank,*,1010', /--accounts a\.csv line 1: expected the header role,currency,code,name/],
      [chart('bnak,*,1010,Bank'), /line 2: "bnak" is not a journal role \(bank, .*\) \(did you mean bank\?\)/],
      [chart('bank,eur,1010,Bank'), /line 2: currency "eur" is neither a currency code \(three capitals, e\.g\. EUR\) nor \*/],
      [chart('bank,*,1010,Bank', 'bank,*,1011,Bank 2'), /line 3: bank in \* is already on line 2/],
      [chart('bank,*,1010'), /line 2: expected 4 fields \(role, currency, code, name\), found 3/],
      [chart('bank,*,,'), /line 2: bank in \* has neither a code nor a name/],
      [chart('clearing,*,1150,=SUM(A1:A9)'), /line 2: the name "=SUM\(A1:A9\)" holds a control character or starts like a spreadsheet formula/],
      [chart(), /--accounts a\.csv: no accounts below the header/],
      [chart('bank,*,1010,"Bank'), /--accounts a\.csv: not readable as CSV/],
    ];
    for (const [text, message] of refused) expect(() => parseChartOfAccounts(text, 'a.csv'), text).toThrow(message);
    const ok = parseChartOfAccounts(`\uFEFF${chart('bank,*,1010,Operating bank', ' bank , USD , 1020 , Bank USD ')}\n`, 'a.csv');
    expect(ok.lines.map((l) => [l.line, l.role, l.currency, l.code, l.name])).toEqual([[2, 'bank', '*', '1010', 'Operating bank'], [3, 'bank', 'USD', '1020', 'Bank USD']]);
  });

  it('--journal-format names the flag and the variable of a format it does not know; --accounts names a bad line', () => {
    expect(() => parseCommandArgs(['--journal-format', 'quickbooks,sage'], ['journalFormat'], {}, {}))
      .toThrow(/--journal-format \/ RECON_JOURNAL_FORMAT "quickbooks,sage": expected generic, quickbooks, xero, netsuite/);
    const t = tempDir();
    try {
      const bad = path.join(t.dir, 'chart.csv');
      writeFileSync(bad, 'role,currency,code,name\nbnak,*,1010,Bank\n');
      expect(() => parseCommandArgs([], ['accounts'], {}, { RECON_ACCOUNTS: bad }))
        .toThrow(/invalid --accounts \/ RECON_ACCOUNTS ".*chart\.csv": line 2: "bnak" is not a journal role/);
      expect(() => parseCommandArgs(['--accounts', path.join(t.dir, 'none.csv')], ['accounts'], {}, {}))
        .toThrow(/invalid --accounts \/ RECON_ACCOUNTS ".*none\.csv": cannot be read: ENOENT/);
    } finally {
      t.cleanup();
    }
  });
});
