import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { silentLogger } from '../../src/log.js';
import { runClose } from '../../pipelines/monthly-close.js';
import { query, tempDir } from '../helpers/recon.js';
import { nightlyOnce } from '../helpers/nightly.js';
import type { Config } from '../../pipelines/config.js';

let sb: Sandbox;
let d: string;
let cleanup: () => void;
let config: Config;
const MONTH = '2026-09';

beforeAll(async () => {
  // index 150 of 160 is delivered in the dataset's last weeks; restated from generation 1 on
  sb = await startSandbox({ seed: 12, disbursements: 160, payoutsPerDisbursement: 10, rateLimit: { limit: 1_000_000 },
    anomalies: { plant: [{ index: 130, kind: 'restated' }] } });
  const t = tempDir();
  d = t.dir;
  cleanup = t.cleanup;
  config = (await nightlyOnce(sb, d)).config;
}, 120_000);
afterAll(async () => {
  await sb.close();
  cleanup();
});

function monthOf(iso: string): string {
  return iso.slice(0, 7);
}

describe('recon close', () => {
  it('writes a close whose figures equal the sum of the month\'s disbursements and whose journal balances per currency', async () => {
    const out = await runClose(config, silentLogger, { month: MONTH, reissue: false, handleSignals: false });
    expect(out.code).toBe(0);
    expect(path.basename(out.workbook!)).toBe(`close-${MONTH}.xlsx`);
    const truth = [...sb.truth.disbursements()].filter((t) => monthOf(t.delivered_at) === MONTH);
    expect(out.disbursements).toBe(truth.length);
    const perCurrency = new Map<string, bigint>();
    for (const t of truth) perCurrency.set(t.currency, (perCurrency.get(t.currency) ?? 0n) + BigInt(t.amount));

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out.workbook!);
    const journal = wb.getWorksheet('Journal')!;
    const header = (journal.getRow(1).values as unknown[]).map(String);
    const [cCur, cDr, cCr] = ['Currency', 'Debit', 'Credit'].map((h) => header.indexOf(h));
    const sums = new Map<string, { dr: number; cr: number }>();
    journal.eachRow((row, n) => {
      const cur = row.getCell(cCur!).value;
      const dr = row.getCell(cDr!).value;
      const cr = row.getCell(cCr!).value;
      if (n === 1 || typeof cur !== 'string' || cur.length !== 3 || (typeof dr !== 'number' && typeof cr !== 'number')) return;
      const s = sums.get(cur) ?? { dr: 0, cr: 0 };
      s.dr += typeof dr === 'number' ? dr : 0;
      s.cr += typeof cr === 'number' ? cr : 0;
      sums.set(cur, s);
    });
    expect([...sums.keys()].sort()).toEqual([...perCurrency.keys()].sort());
    for (const [, s] of sums) expect(s.dr).toBeCloseTo(s.cr, 6);

    const lines = await query(path.join(d, 'recon.duckdb'), `SELECT currency, sum(disbursed_total) AS t FROM monthly_summary WHERE month = '${MONTH}' GROUP BY currency`);
    for (const l of lines) expect(BigInt(String(l.t))).toBe(perCurrency.get(String(l.currency)));
    const closes = await query(path.join(d, 'recon.duckdb'), `SELECT month, version, disbursements FROM closes`);
    expect(closes).toEqual([{ month: MONTH, version: 1, disbursements: truth.length }]);
  });

  it('refuses to close a closed month again without --reissue', async () => {
    const out = await runClose(config, silentLogger, { month: MONTH, reissue: false, handleSignals: false });
    expect(out.code).toBe(2);
  });

  it('turns a restatement of a closed month into a post_close_change finding, and --reissue writes version 2', async () => {
    const restated = [...sb.truth.disbursements()].find((t) => t.index === 130)!;
    const month = monthOf(restated.delivered_at);
    expect(month).toBe(MONTH); // the month the tests above closed
    sb.setGeneration(1);
    const night = await nightlyOnce(sb, d);
    expect(night.outcome.code).toBe(1);
    const f = await query(path.join(d, 'recon.duckdb'), `SELECT disbursement_id FROM exceptions WHERE run_id = '${night.outcome.runId}' AND check_id = 'post_close_change'`);
    expect(f.map((r) => r.disbursement_id)).toEqual([restated.disbursement_id]);
    const again = await runClose(config, silentLogger, { month, reissue: true, handleSignals: false });
    expect(again.version).toBe(2);
    expect(path.basename(again.workbook!)).toBe(`close-${month}-v2.xlsx`);
  });
});
