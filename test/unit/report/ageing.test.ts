// How long money has been at stake (a seeded world, an injected clock): each cause that needs a person is
// aged in business days since first seen — a weekend does not count — and bucketed 0–2, 3–7, 8–30 and more
// than 30 per currency with its money at stake in that currency; an acknowledged cause is not open. The
// workbook's Summary, the mail and the metrics say the same.
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks, type CheckRunResult } from '../../../src/checks/runner.js';
import { markShown } from '../../../src/checks/lifecycle.js';
import { ackFinding } from '../../../src/checks/ack.js';
import { causeAgeing } from '../../../src/store/read/ageing.js';
import { writeRunWorkbook } from '../../../src/report/run-report.js';
import { readNightFacts } from '../../../src/outlets/facts.js';
import { runSummary } from '../../../src/outlets/summary.js';
import { renderText } from '../../../src/outlets/render.js';
import { metricsText } from '../../../src/outlets/metrics.js';
import { moneyAtStake } from '../../../src/outlets/money-at-stake.js';
import { loadClean, openTempStore, type TempStore } from '../../helpers/check-fixtures.js';

let t: TempStore;
let result: CheckRunResult;
const NOW = new Date('2026-07-06T03:00:00Z'); // a Monday

const night = async (runId: string, at: string) => {
  const r = await runChecks(t.connection, { runId, now: new Date(at), only: ['total_identity'] });
  await markShown(t.connection, runId);
  return r;
};
const setAmount = (id: string, amount: number) =>
  t.connection.run('UPDATE disbursements SET amount = $1 WHERE disbursement_id = $2', [amount, id]);

beforeAll(async () => {
  t = await openTempStore();
  await loadClean(t.connection);
  await setAmount('D-EU-1', 246912 + 5000); // first seen Friday 15 May: 36 business days by 6 July
  await night('r1', '2026-05-15T03:00:00Z');
  await setAmount('D-EU-2', 700); // first seen Friday 26 June: 6 business days
  await setAmount('D-KW-1', 242);
  await setAmount('D-MG-2', 507);
  await night('r2', '2026-06-26T03:00:00Z');
  await setAmount('D-JP-2', 10099); // first seen Thursday 2 July: 4 calendar days, 2 business days
  await night('r3', '2026-07-02T03:00:00Z');
  const mg = await t.connection.runAndReadAll(`SELECT finding_key FROM findings WHERE disbursement_id = 'D-MG-2'`);
  const key = String(mg.getRowsJS()[0]![0]);
  await ackFinding(t.connection, { key, note: 'rounding, agreed', by: 'ana', now: new Date('2026-07-03T09:00:00Z') });
  result = await night('r4', NOW.toISOString());
}, 120_000);
afterAll(async () => {
  await t.close();
});

describe('ageing of the causes that need a person', () => {
  it('buckets each cause by business days since first seen, per currency, with its money at stake', async () => {
    const ageing = await causeAgeing(t.connection, 'r4', NOW);
    const table = ageing.map((a) => [a.currency, a.oldest, ...a.buckets.map((b) => `${b.causes}:${b.atStake ?? '-'}`)]);
    expect(table).toEqual([
      ['EUR', 36, '0:-', '1:700', '0:-', '1:5000'],
      ['JPY', 2, '1:100', '0:-', '0:-', '0:-'],
      ['KWD', 6, '0:-', '1:3', '0:-', '0:-'],
    ]);
    // the buckets hold every cause's money once: per currency, what the mail calls money at stake
    const stakes = await moneyAtStake(t.connection, 'r4');
    for (const s of stakes) {
      const a = ageing.find((x) => x.currency === s.currency)!;
      expect(a.buckets.reduce((n, b) => n + (b.atStake ?? 0n), 0n)).toBe(s.subunits);
    }
    // a week later nothing moved but the clock: the causes age
    const later = await causeAgeing(t.connection, 'r4', new Date('2026-07-13T03:00:00Z'));
    expect(later.find((a) => a.currency === 'JPY')!.buckets[1]!.causes).toBe(1);
  });

  it('shows the buckets on the workbook\'s Summary, in the mail and in the metrics', async () => {
    const reportsDir = path.join(t.dir, 'reports');
    const serviceUrl = 'http://127.0.0.1:1';
    const written = await writeRunWorkbook(t.connection, { runId: 'r4', reportsDir, serviceUrl, checks: result });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(written.path);
    const summary = wb.getWorksheet('Summary')!;
    let header = 0;
    summary.eachRow((row, n) => {
      if (row.getCell(1).value === 'Open causes by age (business days)') header = n;
    });
    expect(header).toBeGreaterThan(0);
    expect((summary.getRow(header).values as unknown[]).slice(2)).toEqual(['0–2 days', '0–2: at stake', '3–7 days',
      '3–7: at stake', '8–30 days', '8–30: at stake', '> 30 days', '> 30: at stake']);
    const line = (n: number) => (summary.getRow(n).values as unknown[]).slice(1);
    expect(line(header + 1)).toEqual(['EUR', 0, undefined, 1, 7, 0, undefined, 1, 50]);
    expect(line(header + 2)).toEqual(['JPY', 1, 100, 0, undefined, 0, undefined, 0]);
    expect(line(header + 3)).toEqual(['KWD', 0, undefined, 1, 0.003, 0, undefined, 0]);

    const run = { runId: 'r4', checks: result, counters: {}, workbook: written.path };
    const facts = await readNightFacts(t.connection, run);
    const ended = { code: 1, runId: 'r4', startedAt: NOW, finishedAt: NOW, serviceUrl: null, results: null,
      logFile: null };
    const summaryOfNight = runSummary({ ...ended, facts }, []);
    const text = renderText(summaryOfNight);
    expect(text).toContain('Open causes by age (business days since first seen; per currency, '
      + 'never added across currencies)');
    expect(text).toContain('EUR: 0–2 days 0 · 3–7 days 1 (7.00) · 8–30 days 0 · > 30 days 1 (50.00); oldest 36');
    expect(text).toContain('JPY: 0–2 days 1 (100) · 3–7 days 0 · 8–30 days 0 · > 30 days 0; oldest 2');

    const metrics = await metricsText({
      finishedAt: NOW, durationMs: 1000, exitCode: 1, counters: null, facts, published: path.join(t.dir, 'none'),
    });
    expect(metrics).toContain('recon_open_causes{currency="EUR",age=">30"} 1');
    expect(metrics).toContain('recon_open_causes_at_stake{currency="EUR",age=">30"} 50');
    expect(metrics).toContain('recon_open_causes_at_stake{currency="KWD",age="3-7"} 0.003');
    expect(metrics).toContain('recon_oldest_open_cause_business_days{currency="EUR"} 36');
  });
});
