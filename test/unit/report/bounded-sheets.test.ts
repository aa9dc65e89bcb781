// No sheet passes the rows a sheet may hold, whatever the list: with the limit made small (1,000 rows for
// Excel's 1,048,576), a longer list shows its first rows under a note that names the CSV beside the
// workbook, and the CSV holds every row, in order; a list that fits writes no CSV.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { writeExceptionWorkbook } from '../../../src/report/exceptions-workbook.js';
import { buildJournal, writeCloseWorkbook } from '../../../src/report/close-workbook.js';
import { listLayout } from '../../../src/report/list-sheet.js';
import type { BankRow, CloseInput, DisbursementRow, FindingRow } from '../../../src/report/types.js';
import { DISBURSEMENTS, FINDINGS, generate, readWorkbook, sheetOf, SUMMARY, dirPerTest } from './helpers.js';

const LIMIT = 1_000;

const finding = (i: number): FindingRow => ({ ...FINDINGS[i % FINDINGS.length]!, key: `key-${String(i).padStart(5, '0')}`, subject: `line ${i}` });
const disbursement = (i: number): DisbursementRow => ({ ...DISBURSEMENTS[0]!, disbursementId: `dsb_${String(i).padStart(5, '0')}`, reported: BigInt(100 + i) });
const bank = (i: number): BankRow => ({ disbursementId: `dsb_${String(i).padStart(5, '0')}`, deliveredAt: new Date('2024-05-02T08:30:00Z'), currency: 'EUR',
  amount: BigInt(100 + i), account: '****1234', status: 'not arrived', bankDifference: null, creditedOn: null, statementId: null, byReference: null,
  matchKind: null, creditAmount: null, fee: null, batchSize: null });

/** The highest row number that holds anything, and the first cell of each row, of one sheet. */
function used(sheet: ReturnType<typeof sheetOf>): { last: number; first: unknown[] } {
  let last = 0;
  const first: unknown[] = [];
  sheet.eachRow((row, n) => {
    last = Math.max(last, n);
    first[n] = row.getCell(1).value;
  });
  return { last, first };
}

function csvRows(path: string): string[][] {
  return parse(readFileSync(path, 'utf8'), { relaxColumnCount: false }) as string[][];
}

describe('bounded sheets', () => {
  const tmp = dirPerTest();

  it('a list longer than its sheet shows the first rows under a note, and the CSV beside the workbook holds every one in order', async () => {
    const path = join(tmp.dir, 'recon-2024-05-03-020000Z-ab12.xlsx');
    const written = await writeExceptionWorkbook(path, {
      summary: SUMMARY,
      findings: { rows: generate(2_500, finding), count: 2_500 },
      disbursements: { rows: generate(1_500, disbursement), count: 1_500 },
      listed: { window: 1_400, withFindings: 100, stored: 90_000 },
      bank: { disbursements: { rows: generate(1_200, bank), count: 1_200 }, credits: [], refusedFiles: ['bad.sta: line 3: not MT940'] },
    }, { maxRows: LIMIT });
    expect(written).toMatchObject({ findings: 2_500, disbursements: 1_500 });
    const wb = await readWorkbook(path);
    for (const sheet of wb.worksheets) expect(used(sheet).last, sheet.name).toBeLessThanOrEqual(LIMIT);

    const exceptions = used(sheetOf(wb, 'Exceptions'));
    expect(exceptions.first[1]).toBe('This sheet shows the first 996 of 2,500 rows: a sheet holds at most 1,000 rows.');
    expect(exceptions.first[2]).toBe('Every row is in recon-2024-05-03-020000Z-ab12-exceptions.csv, beside this workbook, and in the published snapshot: '
      + `recon sql "SELECT * FROM exceptions WHERE run_id = 'run_2024-05-03'"`);
    expect(exceptions.first[4]).toBe('Status'); // the header, frozen, under the note and a blank row
    expect(sheetOf(wb, 'Exceptions').views[0]).toMatchObject({ state: 'frozen', ySplit: 4 });
    const header = (sheetOf(wb, 'Exceptions').getRow(4).values as unknown[]).slice(1);
    const keyAt = header.indexOf('Key') + 1;
    expect(sheetOf(wb, 'Exceptions').getRow(LIMIT).getCell(keyAt).value).toBe('key-00995');
    const csv = csvRows(join(tmp.dir, 'recon-2024-05-03-020000Z-ab12-exceptions.csv'));
    expect(csv[0]).toEqual(header);
    expect(csv.slice(1).map((r) => r[keyAt - 1])).toEqual(Array.from({ length: 2_500 }, (_, i) => `key-${String(i).padStart(5, '0')}`));

    // the Disbursements sheet keeps room for its totals, which add up the rows it shows
    const disbursements = sheetOf(wb, 'Disbursements');
    const { headerRow, shown } = listLayout(LIMIT, 1_500, 0, 1 + SUMMARY.totalsByCurrency.length);
    expect(headerRow + shown + 2).toBeLessThanOrEqual(LIMIT);
    expect(disbursements.getRow(headerRow + shown).getCell(1).value).toBe(`dsb_${String(shown - 1).padStart(5, '0')}`);
    const total = disbursements.getRow(headerRow + shown + 2);
    expect(total.getCell(1).value).toBe('Total EUR');
    const shownSum = Array.from({ length: shown }, (_, i) => 100 + i).reduce((a, b) => a + b, 0);
    expect(total.getCell(4).value).toBeCloseTo(shownSum / 100, 2);
    expect(csvRows(join(tmp.dir, 'recon-2024-05-03-020000Z-ab12-disbursements.csv'))).toHaveLength(1_501);

    // the Bank sheet: the note first, then the files the run refused, then the table
    const bankSheet = used(sheetOf(wb, 'Bank'));
    expect(bankSheet.first.slice(1, 5)).toEqual([
      'This sheet shows the first 994 of 1,200 rows: a sheet holds at most 1,000 rows.',
      'Every row is in recon-2024-05-03-020000Z-ab12-bank.csv, beside this workbook, and in the published snapshot: recon sql "SELECT * FROM bank_status"',
      '1 statement file refused by this run (nothing of it imported; fix or remove, the others were imported):',
      'bad.sta: line 3: not MT940',
    ]);
    expect(bankSheet.first[6]).toBe('Disbursement');
    expect(csvRows(join(tmp.dir, 'recon-2024-05-03-020000Z-ab12-bank.csv'))).toHaveLength(1_201);

    // the Summary says what the Disbursements sheet lists and where every disbursement is
    const summary = new Map<unknown, unknown>();
    sheetOf(wb, 'Summary').eachRow((row) => summary.set(row.getCell(1).value, row.getCell(2).value));
    expect(summary.get('Disbursements listed')).toBe(1_500);
    expect(summary.get('Listed because')).toMatch(/^read or credited this night \(1,400\), or with a finding not yet resolved \(100\)/);
    expect(summary.get('Every disbursement')).toBe('all 90,000 stored are in the published snapshot: recon sql "SELECT * FROM reconciliation" (their bank status: bank_status)');
  });

  it('a list that fits has its header on the first row and writes no CSV', async () => {
    const path = join(tmp.dir, 'small.xlsx');
    await writeExceptionWorkbook(path, { summary: SUMMARY, findings: { rows: generate(996, finding), count: 996 },
      disbursements: DISBURSEMENTS }, { maxRows: 997 });
    expect(readdirSync(tmp.dir)).toEqual(['small.xlsx']);
    const exceptions = sheetOf(await readWorkbook(path), 'Exceptions');
    expect(used(exceptions)).toMatchObject({ last: 997 });
    expect(exceptions.getRow(1).getCell(1).value).toBe('Status');
  });

  it('a CSV is complete or absent: rows that fail half way leave none, and no temp file', async () => {
    const path = join(tmp.dir, 'failing.xlsx');
    async function* failing(): AsyncGenerator<FindingRow> {
      for (let i = 0; i < 1_500; i += 1) yield finding(i);
      throw new Error('database went away');
    }
    await expect(writeExceptionWorkbook(path, { summary: SUMMARY, findings: { rows: failing(), count: 3_000 }, disbursements: [] }, { maxRows: LIMIT }))
      .rejects.toThrow('database went away');
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  it('the close of a month longer than a sheet: its Disbursements and Open findings show their first rows, the CSVs hold the month', async () => {
    const path = join(tmp.dir, 'close-2024-05.xlsx');
    const input: CloseInput = {
      month: '2024-05', version: 1, generatedAt: new Date('2024-06-01T08:00:00Z'), serviceUrl: 'https://payments.example.test/v1', lines: [],
      disbursements: { rows: generate(2_000, disbursement), count: 2_000 },
      openFindings: { rows: generate(1_001, finding), count: 1_001 },
      journal: buildJournal([]), suspense: [], provisional: [],
    };
    const written = await writeCloseWorkbook(path, input, { maxRows: LIMIT });
    expect(written).toMatchObject({ disbursements: 2_000, openFindings: 1_001 });
    const wb = await readWorkbook(path);
    for (const sheet of wb.worksheets) expect(used(sheet).last, sheet.name).toBeLessThanOrEqual(LIMIT);
    expect(used(sheetOf(wb, 'Disbursements')).first[2]).toBe('Every row is in close-2024-05-disbursements.csv, beside this workbook, and in the '
      + `published snapshot: recon sql "SELECT * FROM reconciliation WHERE month_of(delivered_at) = '2024-05'"`);
    expect(csvRows(join(tmp.dir, 'close-2024-05-disbursements.csv'))).toHaveLength(2_001);
    expect(csvRows(join(tmp.dir, 'close-2024-05-open-findings.csv'))).toHaveLength(1_002);
    expect(used(sheetOf(wb, 'Open findings')).first[1]).toBe('This sheet shows the first 996 of 1,001 rows: a sheet holds at most 1,000 rows.');
  });
});
