// Shared fixtures and readers for the workbook tests.
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import type { DisbursementRow, FindingRow, RunSummary } from '../../../src/report/types.js';

export { dirPerTest, tempDir } from '../../helpers/temp-dir.js';

export async function readWorkbook(path: string): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  return workbook;
}

export function sheetOf(workbook: ExcelJS.Workbook, name: string): ExcelJS.Worksheet {
  const sheet = workbook.getWorksheet(name);
  if (!sheet) throw new Error(`no sheet ${name}; have ${workbook.worksheets.map((w) => w.name).join(', ')}`);
  return sheet;
}

/** One entry of a zip file as text, read from the central directory (enough for xlsx parts). */
export function zipEntryText(path: string, entryName: string): string {
  const zip = readFileSync(path);
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let offset = zip.readUInt32LE(eocd + 16);
  const entries = zip.readUInt16LE(eocd + 10);
  for (let i = 0; i < entries; i++) {
    const method = zip.readUInt16LE(offset + 10);
    const size = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const skip = nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    if (name === entryName) {
      const local = zip.readUInt32LE(offset + 42);
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return (method === 8 ? inflateRawSync(data) : data).toString('utf8');
    }
    offset += 46 + skip;
  }
  throw new Error(`${entryName} not in ${path}`);
}

export const HOSTILE_SUBJECT = '=HYPERLINK("http://x","y")';

const finding = (over: Partial<FindingRow>): FindingRow => ({
  key: 'k', status: 'open', ageDays: 0, checkId: 'total_identity', severity: 'error',
  recipientId: 'rcp_1', disbursementId: 'dsb_1', subject: null, currency: 'EUR',
  expected: null, actual: null, difference: null, detail: '', firstSeen: new Date('2024-05-01T00:00:00Z'),
  ...over,
});

/** JPY (factor 1), KWD (1000), MGA (5: one subunit is 0.2), EUR (100) and one without a currency. */
export const FINDINGS: FindingRow[] = [
  finding({ key: 'f-jpy', status: 'new', checkId: 'total_identity', currency: 'JPY', subject: HOSTILE_SUBJECT,
    expected: 1500n, actual: 1400n, difference: -100n, detail: 'reported total differs', ageDays: 0 }),
  finding({ key: 'f-kwd', severity: 'warning', currency: 'KWD', recipientId: '+rcp_2',
    expected: 12345n, actual: 12000n, difference: -345n, detail: '-1+1', ageDays: 3 }),
  finding({ key: 'f-mga', currency: 'MGA', expected: 6n, actual: 5n, difference: -1n, detail: '@SUM(A1)', ageDays: 12 }),
  finding({ key: 'f-eur', status: 'acknowledged', currency: 'EUR', expected: 1234n, actual: null, difference: null,
    detail: 'payout missing', ackNote: 'known, see ticket 42', ackBy: 'ana', ackEntries: 3 }),
  finding({ key: 'f-none', currency: null, expected: 250n, detail: 'currency missing' }),
];

export const DISBURSEMENTS: DisbursementRow[] = [
  { disbursementId: 'dsb_1', recipientId: 'rcp_1', deliveredAt: new Date('2024-05-02T08:30:00Z'), currency: 'EUR',
    reported: 123456n, computed: 123400n, difference: 56n, status: 'exceptions', findings: 1, payouts: 130000n, refunds: 5000n, credits: 400n, debits: 2000n },
  { disbursementId: 'dsb_2', recipientId: 'rcp_2', deliveredAt: new Date('2024-05-03T09:00:00Z'), currency: 'MGA',
    reported: 6n, computed: null, difference: null, status: 'incomplete', findings: 0 },
];

export const SUMMARY: RunSummary = {
  runId: 'run_2024-05-03', startedAt: new Date('2024-05-03T02:00:00Z'), finishedAt: new Date('2024-05-03T02:05:00Z'),
  serviceUrl: 'https://payments.example.test/v1', disbursementsChecked: 2,
  byCheck: [{ checkId: 'total_identity', severity: 'error', count: 3 }, { checkId: 'fx', severity: 'warning', count: 1 }],
  byStatus: { new: 1, open: 3, acknowledged: 1, resolved: 0 },
  paymentLookups: { sampled: 12, unverified: 2 },
  totalsByCurrency: [
    { currency: 'EUR', disbursements: 1, reported: 123456n, computed: 123400n, difference: 56n, payouts: 130000n, refunds: 5000n, credits: 400n, debits: 2000n },
    { currency: 'MGA', disbursements: 1, reported: 6n, computed: 0n, difference: 6n },
  ],
};

export async function* generate<T>(count: number, make: (i: number) => T): AsyncGenerator<T> {
  for (let i = 0; i < count; i++) yield make(i);
}
