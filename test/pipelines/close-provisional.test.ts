// a month holding a payout in another currency than its disbursement's, and open
// error findings. The close books that line in its own currency on suspense (every currency's journal
// balances with what is really in it), and says it is provisional: exit 1, on stdout and on the Summary.
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { query, tempDir } from '../helpers/recon.js';
import { nightlyOnce } from '../helpers/nightly.js';
import { runCliHere } from '../helpers/in-process.js';

let sb: Sandbox;
let d: string;
let cleanup: () => void;
let mismatch: { id: string; currency: string; month: string };

beforeAll(async () => {
  sb = await startSandbox({ seed: 14, disbursements: 60, payoutsPerDisbursement: 6, rateLimit: { limit: 1_000_000 },
    anomalies: { plant: [{ index: 40, kind: 'currency_mismatch' }] } });
  const t = tempDir();
  d = t.dir;
  cleanup = t.cleanup;
  expect((await nightlyOnce(sb, d)).outcome.code).toBe(1);
  const a = sb.truth.anomalies()[0]!;
  const truth = [...sb.truth.disbursements()].find((x) => x.disbursement_id === a.disbursement_id)!;
  mismatch = { id: a.disbursement_id, currency: truth.currency, month: truth.delivered_at.slice(0, 7) };
}, 120_000);
afterAll(async () => {
  await sb.close();
  cleanup();
});

describe('a close with a foreign-currency line and open findings', () => {
  it('exits 1, says provisional, holds the line in its own currency and balances every currency', async () => {
    const db = path.join(d, 'recon.duckdb');
    const [line] = await query(db, `SELECT currency, amount FROM currency_suspense WHERE disbursement_id = '${mismatch.id}'`);
    expect(line!.currency).not.toBe(mismatch.currency);
    const r = await runCliHere(['close', '--month', mismatch.month, '--db', db, '--reports', path.join(d, 'reports')]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/PROVISIONAL \(exit 1\): \d+ open error findings? .*1 line in another currency than its disbursement's held in suspense/);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(/→ (\S+)/.exec(r.stdout)![1]!);
    expect(String(wb.getWorksheet('Summary')!.getRow(7).getCell(2).value)).toMatch(/^Provisional: /);
    // run alone, the close still names the service (from the night that read it)
    expect(wb.getWorksheet('Summary')!.getRow(6).getCell(1).value).toBe('Service');
    expect(wb.getWorksheet('Summary')!.getRow(6).getCell(2).value).toBe(sb.url);
    const suspense = wb.getWorksheet('Currency suspense')!;
    expect(suspense.getRow(2).getCell(1).value).toBe(mismatch.id);
    expect(suspense.getRow(2).getCell(6).value).toBe(line!.currency);

    // per currency, debits = credits over the journal's own rows (not its total rows)
    const journal = wb.getWorksheet('Journal')!;
    const sums = new Map<string, number>();
    journal.eachRow((row, n) => {
      const account = String(row.getCell(2).value ?? '');
      if (n === 1 || account.startsWith('Total')) return;
      const cur = String(row.getCell(1).value);
      const dr = Number(row.getCell(4).value ?? 0);
      const cr = Number(row.getCell(5).value ?? 0);
      sums.set(cur, Math.round(((sums.get(cur) ?? 0) + dr - cr) * 1000) / 1000);
    });
    expect(sums.has(String(line!.currency))).toBe(true);
    for (const [cur, net] of sums) expect(net, cur).toBe(0);
    // the foreign line is on the journal of its own currency, never added to the disbursement's
    const foreign = [] as unknown[];
    journal.eachRow((row) => {
      if (row.getCell(1).value === line!.currency && String(row.getCell(3).value).includes('another currency')) foreign.push(row.getCell(5).value ?? row.getCell(4).value);
    });
    expect(foreign.length).toBeGreaterThan(0);
  });
});
