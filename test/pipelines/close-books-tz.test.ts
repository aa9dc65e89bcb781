// The books' time zone everywhere (--books-tz): a delivery at 12:00 UTC on 31 March is 1 April in
// Pacific/Kiritimati (UTC+14 all year). The close of April counts it, its Month sheet draws it on 1 April, the
// Parquet export puts it in April's partition, and post_close_change measures months as the close did.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeMonthsStore } from '../helpers/months-store.js';
import { runCliHere } from '../helpers/in-process.js';
import { query, tempDir } from '../helpers/recon.js';

const TZ = 'Pacific/Kiritimati';
let dir: string;
let cleanup: () => void;
let db: string;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('recon-books-tz-'));
  ({ db } = await writeMonthsStore(dir, [
    { id: 'dsb_late_march', month: '2026-03', currency: 'EUR', payouts: ['10000'] },
    { id: 'dsb_mid_april', month: '2026-04', currency: 'EUR', payouts: ['2500'] },
    { id: 'dsb_late_april', month: '2026-04', currency: 'EUR', payouts: ['700'] },
  ]));
  await query(db, `UPDATE disbursements SET delivered_at = '2026-03-31 12:00:00+00' WHERE disbursement_id = 'dsb_late_march';
    UPDATE disbursements SET delivered_at = '2026-04-30 12:00:00+00' WHERE disbursement_id = 'dsb_late_april'`);
}, 60_000);
afterAll(() => cleanup());

describe('the books\' time zone', () => {
  it('draws the close\'s Month sheet in the books\' days: 31 March 12:00 UTC is 1 April in the zone', async () => {
    const r = await runCliHere(['close', '--month', '2026-04', '--books-tz', TZ, '--db', db, '--reports', path.join(dir, 'reports'),
      '--log-level', 'error']);
    expect(r.code, r.stderr).toBe(0);
    const ids = (await query(db, `SELECT disbursement_id FROM close_disbursements ORDER BY 1`)).map((x) => x.disbursement_id);
    expect(ids).toEqual(['dsb_late_march', 'dsb_mid_april']);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path.join(dir, 'reports', 'close-2026-04.xlsx'));
    const month = wb.getWorksheet('Month')!;
    expect(String(month.getRow(1).getCell(1).value)).toBe(`The month's shape: April 2026 (days in ${TZ})`);
    expect(month.getRow(4).getCell(2).value).toBe('EUR');
    const day = (n: number) => ({ day: (month.getRow(4 + n).getCell(1).value as Date).toISOString().slice(0, 10), eur: month.getRow(4 + n).getCell(2).value });
    expect(day(1)).toEqual({ day: '2026-04-01', eur: 100 });
    // 15 April 10:20 UTC is the 16th there
    expect([day(15), day(16)]).toEqual([{ day: '2026-04-15', eur: 0 }, { day: '2026-04-16', eur: 25 }]);
    expect(day(30)).toEqual({ day: '2026-04-30', eur: 0 });
    expect(month.getRow(35).getCell(2).value).toBe(125); // the total is the close's, not UTC April's
  });

  it('partitions the Parquet export by the books\' months', async () => {
    const out = path.join(dir, 'parquet');
    const r = await runCliHere(['export', '--parquet', out, '--db', db, '--log-level', 'error']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(path.join(out, 'disbursements')).sort()).toEqual(['month=2026-04', 'month=2026-05']);
    const months = await query(db, `SELECT disbursement_id, month FROM read_parquet('${out}/disbursements/**/*.parquet', hive_partitioning = true) ORDER BY 1`);
    expect(months.map((x) => [x.disbursement_id, x.month])).toEqual([
      ['dsb_late_april', '2026-05'], ['dsb_late_march', '2026-04'], ['dsb_mid_april', '2026-04'],
    ]);
  });

  it('measures post_close_change in the books\' months: 30 April 12:00 UTC is May there, not a late arrival in April', async () => {
    const r = await runCliHere(['check', '--db', db, '--log-level', 'error']);
    expect([0, 1], r.stderr).toContain(r.code);
    expect(await query(db, `SELECT disbursement_id FROM exceptions WHERE check_id = 'post_close_change'`)).toEqual([]);
  });
});
