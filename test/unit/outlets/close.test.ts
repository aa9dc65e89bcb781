// #29 acceptance, the close: `recon close --journal-format` writes the month's Journal as each ledger's
// import CSV, one file per currency; read back with csv-parse, every file balances exactly and its totals
// are the close workbook's. The mail and the alert follow the close; the account mapping is checked first.
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../../pipelines/config.js';
import { silentLogger } from '../../../src/log.js';
import { parseMajor } from '../../../src/money.js';
import { readAccountMapping } from '../../../src/outlets/accounts.js';
import { NotifyDocument } from '../../../src/outlets/notify-schema.js';
import { writeStatements } from '../../../sandbox/statements.js';
import { startSandbox, type Sandbox } from '../../../sandbox/index.js';
import { runMonthlyClose, type CloseOutcome } from '../../../pipelines/monthly-close.js';
import { tempDir } from '../../helpers/recon.js';
import { nightlyOnce } from '../../helpers/nightly.js';
import { mimePart, startReceiver, startSmtp, subjectOf, type Receiver, type SmtpStub } from '../../helpers/outlets.js';
import { filesContaining } from '../../helpers/whole-store.js';

const MONTH = '2026-09';
const KEY = 'sk_live_CLOSE_k3y_77';
let sb: Sandbox;
let dir: string;
let cleanup: () => void;
let smtp: SmtpStub;
let hooks: Receiver;
let out: CloseOutcome;

beforeAll(async () => {
  sb = await startSandbox({ seed: 12, disbursements: 160, payoutsPerDisbursement: 10, rateLimit: { limit: 1_000_000 }, apiKey: KEY,
    anomalies: { plant: [{ index: 130, kind: 'restated' }] } });
  ({ dir, cleanup } = tempDir('recon-close-outlets-'));
  smtp = await startSmtp({});
  hooks = await startReceiver();
  const statements = path.join(dir, 'statements');
  await writeStatements(sb.truth, statements); // bank lines in the journal: Bank, Bank charges, Bank suspense
  expect((await nightlyOnce(sb, dir, ['--bank-dir', statements])).outcome.code).toBeLessThanOrEqual(1);
  const accounts = path.join(dir, 'accounts.json');
  writeFileSync(accounts, JSON.stringify({
    accounts: { Bank: '1010 Operating bank', 'Payments clearing': '=SUM(A1:A9)' },
    currencies: { USD: { Bank: '1020 Bank USD' } },
    xero: { taxRate: 'No VAT' },
    netsuite: { subsidiary: 'Parent Company' },
  }));
  const { config } = parseCommandArgs(['--db', path.join(dir, 'recon.duckdb'), '--reports', path.join(dir, 'reports'),
    '--journal-format', 'generic,quickbooks,xero,netsuite', '--journal-accounts', accounts,
    '--mail-to', 'controller@example.com', '--smtp-url', `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, '--notify-url', `${hooks.url}/close`],
  ['db', 'reports', 'journalFormat', 'journalAccounts', 'mailTo', 'smtpUrl', 'notifyUrl'], {}, {});
  out = await runMonthlyClose(config, silentLogger, { month: MONTH, reissue: false, handleSignals: false });
}, 180_000);
afterAll(async () => {
  await Promise.all([sb?.close(), smtp?.close(), hooks?.close()]);
  cleanup();
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

describe('the close journal for the ledger', () => {
  it('closes the month as without outlets, and writes four formats for every currency of the Journal', async () => {
    expect(out.code).toBeLessThanOrEqual(1);
    expect(out.outlets!.warnings).toEqual([]);
    const totals = await workbookTotals(out.workbook!);
    expect([...totals.keys()]).toEqual(expect.arrayContaining(['EUR', 'JPY', 'KWD', 'USD']));
    expect([...totals.values()].every((t) => t.debit > 0n && t.lines >= 3)).toBe(true);
    const files = out.outlets!.delivered.find((d) => d.startsWith('journal:'));
    expect(files).toMatch(new RegExp(`journal: ${4 * totals.size} CSV files`));
  });

  it('every file, read back with csv-parse, balances exactly and totals what the workbook\'s Journal totals', async () => {
    const totals = await workbookTotals(out.workbook!);
    const base = out.workbook!.replace(/\.xlsx$/, '');
    for (const [currency, t] of totals) {
      const cents = (text: string) => (text === '' ? 0n : parseMajor(text, currency)!);
      const check = (format: string, debit: bigint, credit: bigint, rows: Row[]) => {
        expect(debit, `${format} ${currency}`).toBe(credit);
        expect(debit, `${format} ${currency}`).toBe(t.debit);
        expect(rows.length, `${format} ${currency}`).toBe(t.lines);
      };
      const generic = csv(`${base}-generic-${currency}.csv`);
      check('generic', generic.reduce((s, r) => s + cents(r.Debit!), 0n), generic.reduce((s, r) => s + cents(r.Credit!), 0n), generic);
      expect(new Set(generic.map((r) => `${r.Journal} ${r.Date} ${r.Currency}`))).toEqual(new Set([`recon-${MONTH}-1-${currency} 2026-09-30 ${currency}`]));

      const qbo = csv(`${base}-quickbooks-${currency}.csv`);
      check('quickbooks', qbo.reduce((s, r) => s + cents(r.Debits!), 0n), qbo.reduce((s, r) => s + cents(r.Credits!), 0n), qbo);
      expect(qbo.every((r) => r['Journal Date'] === '09/30/2026' && (r.Debits === '') !== (r.Credits === ''))).toBe(true);

      const xero = csv(`${base}-xero-${currency}.csv`);
      const amounts = xero.map((r) => cents(r['*Amount']!));
      check('xero', amounts.filter((a) => a > 0n).reduce((s, a) => s + a, 0n), -amounts.filter((a) => a < 0n).reduce((s, a) => s + a, 0n), xero);
      expect(xero.every((r) => r['*Date'] === '30/09/2026' && r['*TaxRate'] === 'No VAT' && r['*Narration'] === `recon close ${MONTH} v1 ${currency}`)).toBe(true);

      const ns = csv(`${base}-netsuite-${currency}.csv`);
      check('netsuite', ns.reduce((s, r) => s + cents(r.Debit!), 0n), ns.reduce((s, r) => s + cents(r.Credit!), 0n), ns);
      expect(ns.every((r) => r.Subsidiary === 'Parent Company' && r.Currency === currency)).toBe(true);

      // the mapping: per currency first, then for all; a formula-looking name is never a formula
      const bank = qbo.find((r) => r.Description!.startsWith('Settled: disbursements received'))!;
      expect(bank['Account Name']).toBe(currency === 'USD' ? '1020 Bank USD' : '1010 Operating bank');
      expect(generic.find((r) => r['Recon account'] === 'Payments clearing')!.Account).toBe("'=SUM(A1:A9)");
    }
  });

  it('mails the close with its workbook and posts its document; the key is in none of the files', async () => {
    expect(smtp.mails).toHaveLength(1);
    expect(subjectOf(smtp.mails[0]!.raw)).toMatch(new RegExp(`^recon close ${MONTH} v1: (final|PROVISIONAL)`));
    expect(mimePart(smtp.mails[0]!.raw, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')!.equals(readFileSync(out.workbook!))).toBe(true);
    expect(mimePart(smtp.mails[0]!.raw, 'text/plain')!.toString()).toMatch(/Journal \(balanced per currency\)\n\s+[A-Z]{3}: debits [\d.]+ = credits [\d.]+/);
    const doc = NotifyDocument.parse(JSON.parse(hooks.received[0]!.body));
    expect(doc).toMatchObject({ kind: 'close', run_id: out.runId, close: { month: MONTH, version: 1 } });
    expect(doc.close!.journal_files.length).toBe(4 * (await workbookTotals(out.workbook!)).size);
    expect(filesContaining(path.join(dir, 'reports'), KEY)).toEqual([]);
  });
});

describe('the journal account mapping', () => {
  it('is refused before the close starts when it names an account recon does not have, or is not JSON', () => {
    const t = tempDir();
    try {
      const bad = path.join(t.dir, 'bad.json');
      writeFileSync(bad, JSON.stringify({ accounts: { Bnak: '1010' } }));
      expect(() => readAccountMapping(bad)).toThrow(/"Bnak" is not one of recon's journal accounts .*\(did you mean Bank\?\)/);
      writeFileSync(bad, '{ not json');
      expect(() => readAccountMapping(bad)).toThrow(/cannot read the journal account mapping .*--journal-accounts \/ RECON_JOURNAL_ACCOUNTS/);
      writeFileSync(bad, JSON.stringify({ xero: { dateFormat: 'YYYY/DD/MM' } }));
      expect(() => readAccountMapping(bad)).toThrow(/xero\.dateFormat/);
    } finally {
      t.cleanup();
    }
  });

  it('--journal-format names the flag and the variable of a format it does not know', () => {
    expect(() => parseCommandArgs(['--journal-format', 'quickbooks,sage'], ['journalFormat'], {}, {}))
      .toThrow(/--journal-format \/ RECON_JOURNAL_FORMAT "quickbooks,sage": expected generic, quickbooks, xero, netsuite/);
  });
});
