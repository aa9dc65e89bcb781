import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { plantEveryKind, startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index.js';
import { openReadOnly } from '../../src/store/publish.js';
import { query, tempDir } from '../helpers/recon.js';
import { nightlyOnce } from '../helpers/nightly.js';
import { startCli, waitFor, logCount } from '../helpers/child.js';
import { runCliHere } from '../helpers/in-process.js';

// A child's start-up is seconds of CPU: on a machine busy with other work, the first run may read its first
// disbursement late. The lock tests wait for that read (without it they test nothing) rather than assume it.
const READ_WAIT_MS = 60_000;
const LOCK_TEST_MS = 150_000;

const open: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});
async function sandbox(extra: SandboxOptions = {}): Promise<Sandbox> {
  const sb = await startSandbox({ seed: 8, disbursements: 60, payoutsPerDisbursement: 8, rateLimit: { limit: 1_000_000 }, ...extra });
  open.push(sb);
  return sb;
}
function dir(): string {
  const t = tempDir();
  open.push({ close: t.cleanup });
  return t.dir;
}

describe('recon run (nightly)', () => {
  it('exits 0 on a clean dataset and publishes the snapshot', async () => {
    const sb = await sandbox();
    const d = dir();
    const { outcome } = await nightlyOnce(sb, d);
    expect(outcome.code).toBe(0);
    expect(outcome.checks!.findings).toBe(0);
    expect(existsSync(outcome.workbook!)).toBe(true);
    const snap = await openReadOnly(outcome.published!);
    const n = (await snap.connection.runAndReadAll(`SELECT count(*) FROM reconciliation WHERE status = 'reconciled'`)).getRowsJS()[0]![0];
    snap.connection.closeSync();
    snap.instance.closeSync();
    expect(Number(n)).toBe(60);
  });

  it('exits 1 with anomalies and writes a workbook whose JPY, KWD and MGA amounts are exact numbers', async () => {
    const sb = await sandbox({ disbursements: 120, anomalies: { plant: plantEveryKind(12) } });
    const d = dir();
    const { outcome } = await nightlyOnce(sb, d);
    expect(outcome.code).toBe(1);
    // the day once, then the run's time and suffix; and a stable recon-latest.xlsx with the same bytes
    const day = outcome.runId!.slice(0, 8);
    expect(path.basename(outcome.workbook!)).toBe(`recon-${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}-${outcome.runId!.slice(9)}.xlsx`);
    expect(readFileSync(path.join(d, 'reports', 'recon-latest.xlsx')).equals(readFileSync(outcome.workbook!))).toBe(true);
    // the findings of the run, straight from the store, to compare cell by cell
    const rows = await query(path.join(d, 'recon.duckdb'), `SELECT finding_key, currency, expected, actual, difference FROM exceptions
      WHERE run_id = '${outcome.runId}' AND currency IN ('JPY', 'KWD', 'MGA') AND difference IS NOT NULL`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(outcome.workbook!);
    const sheet = wb.getWorksheet('Exceptions')!;
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const col = (name: string) => header.indexOf(name);
    const byKey = new Map<string, ExcelJS.Row>();
    sheet.eachRow((row, n) => n > 1 && byKey.set(String(row.getCell(col('Key')).value), row));
    const factor: Record<string, number> = { JPY: 1, KWD: 1000, MGA: 5 };
    const seen = new Set<string>();
    for (const r of rows) {
      const row = byKey.get(String(r.finding_key))!;
      expect(row, String(r.finding_key)).toBeDefined();
      const cell = row.getCell(col('Difference'));
      expect(typeof cell.value).toBe('number');
      expect(cell.value).toBeCloseTo(Number(r.difference) / factor[String(r.currency)]!, 6);
      expect(cell.numFmt).toBe({ JPY: '#,##0', KWD: '#,##0.000', MGA: '#,##0.0' }[String(r.currency)]);
      seen.add(String(r.currency));
    }
    expect(seen.size).toBeGreaterThanOrEqual(2);
    expect(wb.getWorksheet('Summary')).toBeDefined();
    // 120 disbursements under the header, a blank row, then one totals row per currency
    const disbursements = wb.getWorksheet('Disbursements')!;
    const currencies = new Set<string>();
    for (let r = 2; r <= 121; r += 1) currencies.add(String(disbursements.getRow(r).getCell(3).value));
    expect(disbursements.rowCount).toBe(122 + currencies.size);
    expect(String(disbursements.getRow(123).getCell(1).value)).toMatch(/^Total [A-Z]{3}$/);
  });

  it('keeps an accountant\'s open read-only session on the previous snapshot while the run publishes a new one', async () => {
    const sb = await sandbox();
    const d = dir();
    const first = await nightlyOnce(sb, d);
    expect(first.outcome.code).toBe(0);
    const accountant = await openReadOnly(first.outcome.published!);
    const count = async (c: typeof accountant.connection) => Number((await c.runAndReadAll('SELECT count(*) FROM runs')).getRowsJS()[0]![0]);
    expect(await count(accountant.connection)).toBe(1);
    const second = await nightlyOnce(sb, d);
    expect(second.outcome.code).toBe(0);
    expect(await count(accountant.connection)).toBe(1); // still the old snapshot
    const fresh = await openReadOnly(second.outcome.published!);
    expect(await count(fresh.connection)).toBe(2);
    for (const s of [accountant, fresh]) {
      s.connection.closeSync();
      s.instance.closeSync();
    }
  });

  it('lets only one of two runs at once proceed: the other exits 3', async () => {
    const sb = await sandbox({ latencyMs: [20, 40] });
    const d = dir();
    const args = ['run', '--api-url', sb.url, '--api-key', sb.apiKey, '--db', path.join(d, 'recon.duckdb'), '--reports', path.join(d, 'reports'),
      '--rate-per-minute', '60000', '--sample-budget', '0', '--log-file', path.join(d, 'a.log')];
    const a = startCli(args);
    const read = await waitFor(() => logCount(path.join(d, 'a.log'), 'disbursement read') > 0, READ_WAIT_MS);
    expect(read, 'the first run reads').toBe(true);
    const b = await runCliHere([...args.slice(0, -1), path.join(d, 'b.log')]);
    expect(b.code).toBe(3);
    expect(b.stderr).toMatch(/another recon run holds the lock/);
    expect((await a.done).code).toBe(0);
  }, LOCK_TEST_MS);

  it('recovers the lock left by a killed run', async () => {
    const sb = await sandbox({ latencyMs: [20, 40] });
    const d = dir();
    const log = path.join(d, 'a.log');
    const args = ['run', '--api-url', sb.url, '--api-key', sb.apiKey, '--db', path.join(d, 'recon.duckdb'), '--reports', path.join(d, 'reports'),
      '--rate-per-minute', '60000', '--sample-budget', '0'];
    const a = startCli([...args, '--log-file', log]);
    const read = await waitFor(() => logCount(log, 'disbursement read') > 0, READ_WAIT_MS);
    expect(read, 'the first run reads').toBe(true);
    a.child.kill('SIGKILL');
    await a.done;
    expect(existsSync(path.join(d, 'recon.duckdb.lock'))).toBe(true);
    const b = await runCliHere([...args, '--log-file', path.join(d, 'b.log')]);
    expect(b.code, b.stderr).toBe(0);
    const runs = await query(path.join(d, 'recon.duckdb'), 'SELECT status FROM runs ORDER BY started_at');
    expect(runs.map((r) => r.status)).toEqual(['interrupted', 'succeeded']);
  }, LOCK_TEST_MS);
});
