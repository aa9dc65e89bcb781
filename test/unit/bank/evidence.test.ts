// Bank statements as evidence: what recon says of a disbursement's money follows from the days its
// statements cover and from whether their balances prove them, the same words in the view, the findings,
// the workbook (read back), the close and the mail; and every bank entry of the month reaches the close.
// One store, one currency per case, each written as its bank's format says:
//   KWD  a partial history: one camt.053 of 29 Oct – 6 Nov; older deliveries are awaiting a statement, only
//        the one whose window it holds is "not arrived"
//   EUR  two MT940 statements with a hole between them and a balance that does not carry over
//   GBP  a camt.053 whose balances do not add up, with the credit of a disbursement on it
//   USD  a credit of 7,848.30 received twice
//   JPY  no statement at all
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { importStatements } from '../../../src/bank/import.js';
import { maskAccount } from '../../../src/bank/statement.js';
import { runChecks, type CheckRunResult } from '../../../src/checks/runner.js';
import { ackFinding } from '../../../src/checks/ack.js';
import { openStore, type Store } from '../../../src/store/db.js';
import { writeRunWorkbook } from '../../../src/report/run-report.js';
import { writeMonthClose } from '../../../src/close/month.js';
import { readNightFacts } from '../../../src/outlets/facts.js';
import { runSummary } from '../../../src/outlets/summary.js';
import { renderText } from '../../../src/outlets/render.js';
import { slackText } from '../../../src/outlets/notify.js';

let dir: string;
let store: Store;
let c: DuckDBConnection;
let checks: CheckRunResult;

async function disbursement(id: string, delivered: string, amount: number, currency: string, account = '****1234'): Promise<void> {
  await c.run(`INSERT INTO disbursements VALUES ($1, 'rcp_1', 'delivered', CAST($2 AS TIMESTAMPTZ), 1, 0, 0, $3, $4, $5, 'complete', NULL, 1, 'h', 'r', 'r', now(), NULL)`,
    [id, delivered, amount, currency, account]);
  await c.run(`INSERT INTO payouts VALUES ($1, 1, 'rcp_1', 'ref', 'paid', 'pay_' || $1, $2, $3, 'r', NULL, 1)`, [id, currency, amount]);
}

const camt = (o: { id: string; iban: string; ccy: string; from: string; to: string; opening: string; closing: string; entries: string[] }) => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
<GrpHdr><MsgId>${o.id}</MsgId><CreDtTm>${o.to}T18:00:00</CreDtTm></GrpHdr>
<Stmt><Id>${o.id}</Id><FrToDt><FrDtTm>${o.from}T00:00:00</FrDtTm><ToDtTm>${o.to}T23:59:59</ToDtTm></FrToDt>
<Acct><Id><IBAN>${o.iban}</IBAN></Id><Ccy>${o.ccy}</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="${o.ccy}">${o.opening}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${o.from}</Dt></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="${o.ccy}">${o.closing}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${o.to}</Dt></Dt></Bal>
${o.entries.join('\n')}
</Stmt></BkToCstmrStmt></Document>
`;

const credit = (ref: string, day: string, amount: string, ccy: string, remittance: string) => `<Ntry><NtryRef>${ref}</NtryRef><Amt Ccy="${ccy}">${amount}</Amt>
<CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${day}</Dt></BookgDt><ValDt><Dt>${day}</Dt></ValDt>
<NtryDtls><TxDtls><RltdPties><Dbtr><Pty><Nm>PAYMENTS SERVICE BV</Nm></Pty></Dbtr></RltdPties><RmtInf><Ustrd>${remittance}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'recon-evidence-'));
  store = await openStore(path.join(dir, 'recon.duckdb'));
  c = store.connection;
  // KWD: deliveries from September on; the only statement covers 29 Oct – 6 Nov
  await disbursement('dsb_kwd_sep', '2026-09-15 10:00:00+00', 1_234_567, 'KWD');
  await disbursement('dsb_kwd_oct', '2026-10-20 10:00:00+00', 2_000_000, 'KWD');
  await disbursement('dsb_kwd_in', '2026-10-29 10:00:00+00', 500_000, 'KWD');
  await disbursement('dsb_kwd_gone', '2026-11-02 10:00:00+00', 750_250, 'KWD');
  // EUR: statements of 2–6 Nov and 16–20 Nov; a delivery on 10 Nov falls in the hole
  await disbursement('dsb_eur_hole', '2026-11-10 10:00:00+00', 40_000, 'EUR', '****5678');
  // GBP: the credit is on a statement that does not add up
  await disbursement('dsb_gbp', '2026-11-03 10:00:00+00', 50_000, 'GBP', '****9012');
  // USD: paid once, credited twice
  await disbursement('dsb_usd_twice', '2026-11-03 10:00:00+00', 784_830, 'USD', '****3456');
  // JPY: no statement at all
  await disbursement('dsb_jpy', '2026-11-04 10:00:00+00', 90_000, 'JPY', '****7890');

  const files: Array<[string, string]> = [
    ['kwd-2026-11-06.xml', camt({ id: 'KWD-1', iban: 'KW81CBKU0000000000001234', ccy: 'KWD', from: '2026-10-29', to: '2026-11-06', opening: '100.000', closing: '600.000',
      entries: [credit('K1', '2026-10-30', '500.000', 'KWD', 'SETTLEMENT dsb_kwd_in')] })],
    ['eur-2026-11-06.sta', [':20:EUR1106', ':25:NL91ABNA0417165678', ':28C:1/1', ':60F:C261102EUR1000,00',
      ':61:2611031103D10,00NCHGNONREF//E1', ':86:/REMI/ACCOUNT FEE/', ':62F:C261106EUR990,00', '-'].join('\n')],
    ['eur-2026-11-20.sta', [':20:EUR1120', ':25:NL91ABNA0417165678', ':28C:2/1', ':60F:C261116EUR890,00',
      ':61:2611171117D10,00NCHGNONREF//E2', ':86:/REMI/ACCOUNT FEE/', ':62F:C261120EUR880,00', '-'].join('\n')],
    ['gbp-2026-11.xml', camt({ id: 'GBP-1', iban: 'GB29NWBK60161300009012', ccy: 'GBP', from: '2026-11-02', to: '2026-11-06', opening: '1000.00', closing: '2000.00',
      entries: [credit('G1', '2026-11-04', '500.00', 'GBP', 'SETTLEMENT dsb_gbp')] })],
    ['usd-2026-11.xml', camt({ id: 'USD-1', iban: 'US00RCON0000000000003456', ccy: 'USD', from: '2026-11-02', to: '2026-11-13', opening: '0.00', closing: '15696.60',
      entries: [credit('U1', '2026-11-04', '7848.30', 'USD', 'SETTLEMENT dsb_usd_twice'), credit('U2', '2026-11-05', '7848.30', 'USD', 'SETTLEMENT dsb_usd_twice')] })],
  ];
  for (const [name, text] of files) writeFileSync(path.join(dir, name), text);
  await importStatements(c, files.map(([name]) => path.join(dir, name)), 'import-1');
  checks = await runChecks(c, { runId: 'run-1' });
}, 60_000);

afterAll(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = async (sql: string, params: unknown[] = []) => (await c.runAndReadAll(sql, params as never)).getRowObjectsJS();
const status = async (id: string) => String((await rows('SELECT bank_status FROM bank_status WHERE disbursement_id = $1', [id]))[0]!.bank_status);
const findings = async (check: string) => rows(`SELECT disbursement_id, severity, currency, expected, actual, difference, detail FROM exceptions
  WHERE run_id = 'run-1' AND check_id = $1 ORDER BY ALL`, [check]);

/** A table sheet's rows as objects keyed by its header row. */
function sheetRows(wb: ExcelJS.Workbook, name: string, headerRow = 1): Array<Record<string, unknown>> {
  const sheet = wb.getWorksheet(name)!;
  const header = (sheet.getRow(headerRow).values as unknown[]).slice(1).map(String);
  const out: Array<Record<string, unknown>> = [];
  sheet.eachRow((row, n) => {
    if (n > headerRow) out.push(Object.fromEntries(header.map((h, i) => [h, row.getCell(i + 1).value])));
  });
  return out;
}

async function runWorkbook(): Promise<ExcelJS.Workbook> {
  const reports = path.join(dir, 'reports');
  const written = await writeRunWorkbook(c, { runId: 'run-1', reportsDir: reports, serviceUrl: 'http://127.0.0.1:1', checks });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(written.path);
  return wb;
}

async function close(version: number, accept: { by: string; note: string } | null = null) {
  const written = await writeMonthClose(c, { month: '2026-11', version, reportsDir: path.join(dir, 'close'), serviceUrl: 'http://127.0.0.1:1',
    now: new Date('2026-12-02T08:00:00Z'), accept, booksTz: 'UTC', book: (journal) => journal });
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(written.path);
  return { written, wb, status: String(wb.getWorksheet('Summary')!.getRow(7).getCell(2).value) };
}

describe('bank statements as evidence', () => {
  it('a partial history: only the window the statement holds is "not arrived"; before it, "awaiting statement" naming the first uncovered day', async () => {
    expect(await status('dsb_kwd_sep')).toBe('awaiting statement');
    expect(await status('dsb_kwd_oct')).toBe('awaiting statement');
    expect(await status('dsb_kwd_in')).toBe('settled');
    expect(await status('dsb_kwd_gone')).toBe('not arrived');
    expect(await rows(`SELECT disbursement_id, strftime(uncovered_on, '%Y-%m-%d') AS day FROM bank_status WHERE currency = 'KWD' AND uncovered_on IS NOT NULL ORDER BY 1`))
      .toEqual([{ disbursement_id: 'dsb_kwd_oct', day: '2026-10-20' }, { disbursement_id: 'dsb_kwd_sep', day: '2026-09-15' }]);
    const missing = await findings('bank_missing_credit');
    expect(missing.filter((f) => f.currency === 'KWD')).toEqual([{ disbursement_id: 'dsb_kwd_gone', severity: 'error', currency: 'KWD', expected: 750_250n, actual: 0n,
      difference: -750_250n, detail: 'not arrived: no credit of 750.250 KWD reached the account ****1234 within 3 business days of delivery on 2026-11-02; its statements run to 2026-11-06' }]);
    const bank = sheetRows(await runWorkbook(), 'Bank');
    const word = (id: string) => bank.find((r) => r.Disbursement === id)?.['Bank status'];
    expect(word('dsb_kwd_sep')).toBe('awaiting statement (no statement covers 2026-09-15)');
    expect(word('dsb_kwd_gone')).toBe('not arrived');
    expect(bank.find((r) => r.Disbursement === 'dsb_kwd_gone')?.Amount).toBe(750.25);
  });

  it('a hole with a balance that does not carry over: an error naming the missing days and both balances, and no conclusion across it', async () => {
    expect(await findings('bank_statement_gap')).toEqual([{ disbursement_id: null, severity: 'error', currency: 'EUR', expected: 99_000n, actual: 89_000n,
      difference: -10_000n, detail: `account ${maskAccount('NL91ABNA0417165678')} EUR: no statement covers 2026-11-07 to 2026-11-15 (between eur-2026-11-06.sta, to 2026-11-06, `
        + 'and eur-2026-11-20.sta, from 2026-11-16); the closing balance 990.00 EUR of 2026-11-06 is not the next opening balance 890.00 EUR of 2026-11-16 '
        + '(a difference of -100.00 EUR)' }]);
    expect(await status('dsb_eur_hole')).toBe('awaiting statement');
    expect((await findings('bank_missing_credit')).some((f) => f.currency === 'EUR')).toBe(false);
    const bank = sheetRows(await runWorkbook(), 'Bank');
    expect(bank.find((r) => r.Disbursement === 'dsb_eur_hole')?.['Bank status']).toBe('awaiting statement (no statement covers 2026-11-10)');
  });

  it('an unbalanced statement: a finding with the difference, its credit kept but not taken as proven, on Bank suspense in the close', async () => {
    expect(await findings('bank_statement_unbalanced')).toEqual([{ disbursement_id: null, severity: 'error', currency: 'GBP', expected: 200_000n, actual: 150_000n,
      difference: -50_000n, detail: `statement gbp-2026-11.xml of account ${maskAccount('GB29NWBK60161300009012')} GBP (2026-11-02 to 2026-11-06) does not add up: opening 1000.00 `
        + '+ credits 500.00 − debits 0.00 = 1500.00 GBP, but its closing balance is 2000.00 GBP (a difference of 500.00 GBP)' }]);
    expect(await status('dsb_gbp')).toBe('credited on an unbalanced statement');
    expect(await rows(`SELECT settlement FROM bank_status WHERE disbursement_id = 'dsb_gbp'`)).toEqual([{ settlement: 'awaiting statement' }]);
    const { wb, status: said } = await close(1);
    expect(said).toContain('500.00 GBP credited on an unbalanced statement (Bank)');
    const journal = sheetRows(wb, 'Journal').filter((r) => r.Currency === 'GBP');
    expect(journal.find((r) => r.Account === 'Bank suspense' && String(r.Description).startsWith('Credited on an unbalanced statement'))?.Debit).toBe(500);
  });

  it('a credit received twice reaches the close by name and keeps it provisional after the findings are acknowledged, until accepted', async () => {
    const dup = await findings('bank_duplicate_credit');
    expect(dup.map((f) => [f.disbursement_id, f.actual])).toEqual([['dsb_usd_twice', 784_830n]]);
    const first = await close(2);
    expect(first.status).toMatch(/^Provisional: .*7848\.30 USD credited twice, to return \(Unmatched credits\)/);
    // every finding acknowledged: the money is still in the bank twice
    for (const f of await rows(`SELECT finding_key FROM open_exceptions WHERE state <> 'acknowledged'`)) {
      await ackFinding(c, { key: String(f.finding_key), by: 'A. Accountant', note: 'seen' });
    }
    const acked = await close(3);
    expect(acked.status).toMatch(/^Provisional: .*7848\.30 USD credited twice, to return \(Unmatched credits\)/);
    expect(acked.status).not.toMatch(/open error finding/);
    expect(acked.status).not.toMatch(/no money unaccounted for/);
    // the journal's USD Bank lines add up to the statement's movement of the month: 15,696.60
    const usd = sheetRows(acked.wb, 'Journal').filter((r) => r.Currency === 'USD' && r.Account === 'Bank');
    expect(usd.reduce((t, r) => t + Math.round(Number(r.Debit ?? 0) * 100) - Math.round(Number(r.Credit ?? 0) * 100), 0)).toBe(1_569_660);
    const twice = sheetRows(acked.wb, 'Journal').filter((r) => r.Currency === 'USD' && String(r.Description).startsWith('Credited twice'));
    expect(twice.map((r) => [r.Account, r.Debit ?? null, r.Credit ?? null])).toEqual([['Bank', 7848.3, null], ['Bank suspense', null, 7848.3]]);
    expect(sheetRows(acked.wb, 'Unmatched credits').find((r) => r.Currency === 'USD')?.['What it is']).toBe('second credit for a settled disbursement');
    const accepted = await close(4, { by: 'A. Accountant', note: 'return requested from the provider' });
    expect(accepted.status).toMatch(/^(Final|Provisional).*Accepted as unaccounted by A\. Accountant \("return requested from the provider"\): .*7848\.30 USD credited twice/);
    expect(accepted.status).not.toMatch(/^Provisional: [^.]*7848\.30 USD credited twice/);
    expect(accepted.written.acceptance?.accepted).toContain('7848.30 USD credited twice, to return (Unmatched credits)');
  });

  it('a currency without statements says "no statements" in the view, the Summary, the mail and the alert, whatever other currencies have', async () => {
    expect(await status('dsb_jpy')).toBe('no statements');
    const wb = await runWorkbook();
    const summary = wb.getWorksheet('Summary')!;
    let header = 0;
    summary.eachRow((row, n) => {
      if (row.getCell(1).value === 'Money at stake by currency') header = n;
    });
    expect(header).toBeGreaterThan(0);
    const stakes = sheetRows(wb, 'Summary', header).filter((r) => /^[A-Z]{3}$/.test(String(r['Money at stake by currency'])));
    const cell = (ccy: string) => stakes.find((r) => r['Money at stake by currency'] === ccy)?.['Not yet in the bank'];
    expect(cell('JPY')).toBe('no statements');
    expect(cell('KWD')).toBe(3234.567 + 750.25); // awaiting 1234.567 + 2000.000, not arrived 750.250
    expect(sheetRows(wb, 'Bank').find((r) => r.Disbursement === 'dsb_jpy')?.['Bank status']).toBe('no statements');
    const facts = await readNightFacts(c, { runId: 'run-1', checks, counters: {}, workbook: 'recon.xlsx' });
    expect(facts.bank?.noStatements).toEqual({ disbursements: 1, currencies: ['JPY'] });
    const summaryOut = runSummary({ code: 1, runId: 'run-1', startedAt: new Date(0), finishedAt: new Date(0), serviceUrl: null, logFile: null, facts, results: null }, []);
    expect(renderText(summaryOut)).toContain('1 with no statements (JPY)');
    expect(slackText(summaryOut)).toContain('1 with no statements (JPY)');
  });
});
