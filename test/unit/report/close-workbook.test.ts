import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildJournal, writeCloseWorkbook } from '../../../src/report/close-workbook.js';
import { ROLES, assertJournalBalanced, journalBalances } from '../../../src/report/journal.js';
import type { CloseInput, CloseLine, JournalEntry } from '../../../src/report/types.js';
import { DISBURSEMENTS, FINDINGS, readWorkbook, sheetOf, dirPerTest } from './helpers.js';

function line(recipientId: string, currency: string, c: { payouts: bigint; refunds?: bigint; credit?: bigint; debit?: bigint; disbursed: bigint }): CloseLine {
  const refunds = c.refunds ?? 0n;
  const credits = c.credit ?? 0n;
  const debits = c.debit ?? 0n;
  const computedNet = c.payouts - refunds + credits - debits;
  return { recipientId, currency, payouts: c.payouts, refunds, credits, debits, computedNet,
    disbursedTotal: c.disbursed, variance: c.disbursed - computedNet, disbursements: 2 };
}

const LINES: CloseLine[] = [
  line('rcp_1', 'EUR', { payouts: 100_000n, refunds: 5_000n, credit: 1_000n, debit: 2_900n, disbursed: 93_100n }),
  line('rcp_2', 'EUR', { payouts: 50_000n, debit: 1_450n, disbursed: 48_600n }), // 50 cents over: suspense Cr
  line('rcp_1', 'JPY', { payouts: 12_000n, refunds: 2_000n, disbursed: 9_000n }), // 1000 short: suspense Dr
  line('rcp_3', 'MGA', { payouts: 7n, debit: 1n, disbursed: 6n }),
  line('rcp_4', 'KWD', { payouts: 1_000n, disbursed: 1_000n }),
];

const input = (journal: JournalEntry[]): CloseInput => ({
  month: '2024-05', version: 2, generatedAt: new Date('2024-06-01T06:00:00Z'), serviceUrl: 'https://payments.example.test',
  lines: LINES, disbursements: DISBURSEMENTS, openFindings: FINDINGS, journal, suspense: [], provisional: [],
});

describe('buildJournal', () => {
  it('books a GBP payout found in a VND disbursement in GBP, on suspense, never in VND', () => {
    const vnd = line('rcp_9', 'VND', { payouts: 305_194_302n, disbursed: 331_545_780n }); // the service added the GBP subunits to VND
    const gbp = { disbursementId: 'dsb_966c0004n', recipientId: 'rcp_9', disbursementCurrency: 'VND', kind: 'payout' as const, entryType: null,
      reference: 'PO-966C0004N-003', currency: 'GBP', amount: 26_351_478n, signedAmount: 26_351_478n };
    const journal = buildJournal([vnd], [gbp]);
    for (const b of journalBalances(journal)) expect(b.debit, b.currency).toBe(b.credit);
    const of = (currency: string) => journal.filter((e) => e.currency === currency);
    expect(of('VND').find((e) => e.account === ROLES.clearing)).toMatchObject({ credit: 305_194_302n }); // VND payouts only
    expect(of('VND').find((e) => e.account === ROLES.suspense)).toMatchObject({ credit: 26_351_478n }); // disbursed more than its VND lines
    expect(of('GBP').map((e) => [e.account, e.debit, e.credit])).toEqual([
      [ROLES.clearing, 0n, 26_351_478n],
      [ROLES.suspense, 26_351_478n, 0n],
    ]);
  });

  it('balances every currency exactly, including the variance on suspense', () => {
    const journal = buildJournal(LINES);
    const balances = journalBalances(journal);
    expect(balances.map((b) => b.currency)).toEqual(['EUR', 'JPY', 'KWD', 'MGA']);
    for (const b of balances) expect(b.debit, b.currency).toBe(b.credit);
    expect(() => assertJournalBalanced(journal)).not.toThrow();
  });

  it('posts each component to its own account on its own side', () => {
    const eur = buildJournal(LINES).filter((e) => e.currency === 'EUR');
    const at = (account: string) => eur.find((e) => e.account === account);
    expect(at(ROLES.bank)).toMatchObject({ debit: 141_700n, credit: 0n });
    expect(at(ROLES.refunds)).toMatchObject({ debit: 5_000n, credit: 0n });
    expect(at(ROLES.fees)).toMatchObject({ debit: 4_350n, credit: 0n });
    expect(at(ROLES.clearing)).toMatchObject({ debit: 0n, credit: 150_000n });
    expect(at(ROLES.credit_adjustments)).toMatchObject({ debit: 0n, credit: 1_000n });
    expect(at(ROLES.suspense)).toMatchObject({ debit: 0n, credit: 50n });
    const jpy = buildJournal(LINES).filter((e) => e.currency === 'JPY');
    expect(jpy.find((e) => e.account === ROLES.suspense)).toMatchObject({ debit: 1_000n, credit: 0n });
    expect(buildJournal(LINES).some((e) => e.currency === 'KWD' && e.account === ROLES.suspense)).toBe(false);
  });

  it('books what the bank kept of a credit on Bank charges, the rest of the cash on Bank, and still balances', () => {
    // EUR disbursed 141,700: 120,000 settled whole, 20,200 arrived of a 21,700 disbursement (15.00 kept by the bank)
    const split = { settled: 120_000n + 20_200n, bankCharges: 1_500n, shortCredited: 0n, shortBy: 0n, otherAccount: 0n, awaiting: 0n, notArrived: 0n, unproven: 0n };
    const eur = buildJournal(LINES, [], new Map([['EUR', split]])).filter((e) => e.currency === 'EUR');
    expect(eur.filter((e) => e.account.startsWith('Bank')).map((e) => [e.account, e.debit, e.credit])).toEqual([
      [ROLES.bank, 140_200n, 0n], [ROLES.bank_charges, 1_500n, 0n]]);
    expect(() => assertJournalBalanced(eur)).not.toThrow();
  });

  it('refuses a line whose computed net does not follow the sign convention', () => {
    const negativeRefunds = { ...LINES[0]!, refunds: -5_000n, computedNet: 104_100n - 2_900n + 1_000n };
    expect(() => buildJournal([negativeRefunds])).toThrow(/refunds is -5000/);
    const wrongVariance = { ...LINES[1]!, variance: -50n };
    expect(() => buildJournal([wrongVariance])).toThrow(/variance -50/);
  });
});

describe('writeCloseWorkbook', () => {
  const tmp = dirPerTest();

  it('writes summary, disbursements, open findings and a journal with per-currency totals', async () => {
    const path = join(tmp.dir, 'close-2024-05-v2.xlsx');
    const written = await writeCloseWorkbook(path, input(buildJournal(LINES)));
    expect(written).toMatchObject({ lines: 5, disbursements: 2, openFindings: FINDINGS.length });
    const workbook = await readWorkbook(path);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Summary', 'Disbursements', 'Open findings', 'Journal']);

    const summary = sheetOf(workbook, 'Summary');
    expect(summary.getRow(7).getCell(1).value).toBe('Status');
    expect(summary.getRow(7).getCell(2).value).toBe('Final: no open error findings, no variance, no money unaccounted for (bank, suspense)');
    const header = summary.getRow(9);
    expect(header.getCell(1).value).toBe('Recipient');
    expect(summary.views[0]).toMatchObject({ state: 'frozen', ySplit: 9 });
    expect(summary.getRow(10).getCell(4).value).toBe(1000); // rcp_1 EUR payouts, 100000 cents
    const amount = (row: number, column: number) => summary.getRow(row).getCell(column);
    expect(amount(13, 8).value).toBe(1.2); // MGA computed net: 6 subunits
    expect(amount(13, 8).numFmt).toBe('#,##0.0');
    expect(amount(11, 10).value).toBe(0.5); // EUR variance, 50 cents over
    expect(amount(12, 10).value).toBe(-1000); // JPY variance, highlighted
    expect((amount(12, 10).fill as ExcelJS.FillPattern).fgColor?.argb).toBe('FFFFC7CE');
    expect(amount(14, 4).numFmt).toBe('#,##0.000'); // KWD
    const values = summary.getSheetValues().flatMap((row) => (Array.isArray(row) ? [row.slice(1)] : []));
    expect(values).toContainEqual(['Total', 'EUR', 4, 1500, 50, 10, 43.5, 1416.5, 1417, 0.5]);

    const openFindings = sheetOf(workbook, 'Open findings');
    expect(openFindings.getRow(1).getCell(2).value).toBe('Age (days)');
    expect(openFindings.getRow(4).getCell(2).value).toBe(12);
  });

  it('ends each currency of the journal with a balanced total row', async () => {
    const path = join(tmp.dir, 'close.xlsx');
    await writeCloseWorkbook(path, input(buildJournal(LINES)));
    const journal = sheetOf(await readWorkbook(path), 'Journal');
    expect(journal.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(journal.autoFilter).toBeTruthy();
    const rows = journal.getSheetValues().flatMap((row) => (Array.isArray(row) ? [row.slice(1)] : []));
    // the totals and the balance test are live formulas, with recon's figures as cached results
    const cached = (v: unknown) => (v !== null && typeof v === 'object' && 'result' in v ? (v as { result: unknown }).result : v);
    const totals = rows.filter((r) => typeof r[1] === 'string' && r[1].startsWith('Total ')).map((r) => r.map(cached));
    const eur = rows.find((r) => r[1] === 'Total EUR')!;
    expect(eur[3]).toMatchObject({ formula: expect.stringMatching(/^SUM\(D\d+:D\d+\)$/) });
    expect(eur[5]).toMatchObject({ formula: expect.stringMatching(/^IF\(ROUND\(D\d+-E\d+,2\)=0,"Yes","No"\)$/) });
    expect(totals).toEqual([
      ['EUR', 'Total EUR', undefined, 1510.5, 1510.5, 'Yes'],
      ['JPY', 'Total JPY', undefined, 12_000, 12_000, 'Yes'],
      ['KWD', 'Total KWD', undefined, 1, 1, 'Yes'],
      ['MGA', 'Total MGA', undefined, 1.4, 1.4, 'Yes'],
    ]);
    expect(rows).toContainEqual(['EUR', ROLES.suspense, 'Disbursed more than computed', undefined, 0.5, undefined, 'suspense']);
    // the role of each line beside it; without a chart of accounts, no Code column
    expect(rows[0]).toEqual(['Currency', 'Account', 'Description', 'Debit', 'Credit', 'Balanced?', 'Role']);
  });

  it('refuses an unbalanced journal and writes nothing', async () => {
    const journal = buildJournal(LINES);
    const bank = journal.findIndex((e) => e.currency === 'JPY' && e.account === ROLES.bank);
    journal[bank] = { ...journal[bank]!, debit: journal[bank]!.debit + 1n };
    const path = join(tmp.dir, 'out', 'close.xlsx');
    await expect(writeCloseWorkbook(path, input(journal))).rejects.toThrow(/JPY debits 12001 ≠ credits 12000/);
    expect(existsSync(join(tmp.dir, 'out'))).toBe(false);
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  it('refuses negative journal amounts and a malformed month', async () => {
    const negative: JournalEntry[] = [
      { currency: 'EUR', role: 'bank', account: 'Bank', description: '', debit: -5n, credit: 0n },
      { currency: 'EUR', role: 'clearing', account: 'Clearing', description: '', debit: -5n, credit: 0n },
    ];
    expect(() => assertJournalBalanced(negative)).toThrow(/negative/);
    await expect(writeCloseWorkbook(join(tmp.dir, 'x.xlsx'), { ...input([]), month: '2024-5' })).rejects.toThrow(/YYYY-MM/);
  });
});
