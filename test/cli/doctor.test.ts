// recon doctor: before the first night, one line per thing that would make it fail, exit 2 when one
// would. Against the embedded sandbox: a good key, a bad key, a key refused payment details, a folder that
// cannot be created (under /proc: root ignores permissions), a clock that is off (an injected one).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { parseCommandArgs, COMMAND_OPTIONS } from '../../pipelines/config.js';
import { runDoctor } from '../../pipelines/doctor.js';
import type { DoctorLine } from '../../src/doctor/index.js';
import { tempDir } from '../helpers/recon.js';
import { runCliHere } from '../helpers/in-process.js';
import { acquireLock } from '../../src/ops/lock.js';

let sb: Sandbox;
let refusing: Sandbox;
let t: { dir: string; cleanup: () => void };
beforeAll(async () => {
  sb = await startSandbox({ seed: 27, disbursements: 5, payoutsPerDisbursement: 2 });
  refusing = await startSandbox({ seed: 27, disbursements: 5, payoutsPerDisbursement: 2, realism: { refusePaymentRate: 1 } });
  t = tempDir('recon-doctor-');
});
afterAll(async () => {
  await sb?.close();
  await refusing?.close();
  t?.cleanup();
});

const config = (args: string[], s: Sandbox = sb) => parseCommandArgs(
  ['--api-url', s.url, '--api-key', s.apiKey, '--db', path.join(t.dir, 'store', 'recon.duckdb'), '--reports', path.join(t.dir, 'reports'), ...args],
  COMMAND_OPTIONS.doctor, {}, {},
).config;
const line = (lines: DoctorLine[], check: string) => lines.find((l) => l.check === check)!;

describe('recon doctor', () => {
  it('says OK line by line when a night would run, and makes the folders it checks', async () => {
    const { code, lines } = await runDoctor(config([]));
    expect(lines.map((l) => [l.check, l.verdict])).toEqual([
      ['service', 'OK'], ['payments', 'OK'], ['clock', 'OK'], ['store folder', 'OK'], ['reports folder', 'OK'], ['disk', 'OK'], ['output paths', 'OK'], ['run lock', 'OK'],
    ]);
    expect(line(lines, 'service').reason).toMatch(/5 delivered disbursements/);
    expect(line(lines, 'store folder').reason).toMatch(/created now/);
    expect(code).toBe(0);
  });

  it('fails on a key the service refuses, naming the setting, and never shows the key', async () => {
    const { code, lines } = await runDoctor({ ...config([]), apiKey: 'not-the-key-1234' });
    expect(code).toBe(2);
    expect(line(lines, 'service')).toMatchObject({ verdict: 'FAIL' });
    expect(line(lines, 'service').reason).toMatch(/refused the key .*401.*PAYMENTS_API_KEY/);
    expect(JSON.stringify(lines)).not.toMatch(/not-the-key-1234/);
  });

  it('fails on a folder that cannot be created (at once, no mkdir loop) and on no service at all', async () => {
    const { code, lines } = await runDoctor({ ...config([]), reports: '/proc/recon-doctor/reports', apiUrl: undefined });
    expect(code).toBe(2);
    expect(line(lines, 'reports folder')).toMatchObject({ verdict: 'FAIL' });
    expect(line(lines, 'reports folder').reason).toMatch(/cannot write to \/proc\/recon-doctor\/reports: .*--reports \/ RECON_REPORTS_DIR/);
    expect(line(lines, 'service').reason).toMatch(/no service URL: pass --api-url or set PAYMENTS_API_URL/);
    expect(line(lines, 'payments').verdict).toBe('SKIP');
    // a file where the store's folder must be
    const blocker = path.join(t.dir, 'a-file');
    writeFileSync(blocker, '');
    const store = await runDoctor({ ...config([]), db: path.join(blocker, 'recon.duckdb') });
    expect(line(store.lines, 'store folder')).toMatchObject({ verdict: 'FAIL' });
    expect(store.code).toBe(2);
  });

  it('warns (the night runs) when the key may not read payment details, and skips them when sampling is off', async () => {
    const refused = await runDoctor(config([], refusing));
    expect(line(refused.lines, 'payments')).toMatchObject({ verdict: 'WARN' });
    expect(line(refused.lines, 'payments').reason).toMatch(/403.*--sample-budget 0/);
    expect(refused.code).toBe(0);
    const off = await runDoctor(config(['--sample-budget', '0'], refusing));
    expect(line(off.lines, 'payments')).toMatchObject({ verdict: 'SKIP' });
  });

  it('compares this machine\'s clock with the service\'s Date header, and names a run that holds the lock', async () => {
    const ahead = await runDoctor(config([]), { now: () => Date.now() + 10 * 60_000 });
    expect(line(ahead.lines, 'clock')).toMatchObject({ verdict: 'WARN' });
    expect(line(ahead.lines, 'clock').reason).toMatch(/\d+ s ahead of the service's/);
    const c = config([]);
    const lock = await acquireLock(`${c.db}.lock`, { command: 'recon run' });
    try {
      const held = await runDoctor(c);
      expect(line(held.lines, 'run lock')).toMatchObject({ verdict: 'WARN' });
      expect(line(held.lines, 'run lock').reason).toMatch(/holds the lock .*recon run.*exit 3/);
    } finally {
      await lock.release();
    }
  });

  it('checks the host-wide budget file when one is set: its folder, and a 429 that has the host paused', async () => {
    const file = path.join(t.dir, 'budget', 'recon-budget.json');
    const fine = await runDoctor(config(['--budget-file', file]));
    expect(line(fine.lines, 'budget file')).toMatchObject({ verdict: 'OK' });
    expect(fine.lines.at(-1)!.check).toBe('budget file');
    const now = Date.parse('2026-11-27T05:00:00Z');
    writeFileSync(file, JSON.stringify({ next: now, blockedUntil: now + 7 * 60_000 }));
    const blocked = await runDoctor(config(['--budget-file', file]), { now: () => now });
    expect(line(blocked.lines, 'budget file')).toMatchObject({ verdict: 'WARN' });
    expect(line(blocked.lines, 'budget file').reason).toMatch(/paused by a 429 until 05:07 UTC/);
    const refused = await runDoctor(config(['--budget-file', '/proc/recon-doctor/budget.json']));
    expect(line(refused.lines, 'budget file')).toMatchObject({ verdict: 'FAIL' });
    expect(refused.code).toBe(2);
    expect(line(refused.lines, 'budget file').reason).toMatch(/--budget-file \/ RECON_BUDGET_FILE/);
    // without the setting, no line
    expect((await runDoctor(config([]))).lines.some((l) => l.check === 'budget file')).toBe(false);
  });

  it('as a command: one line per check on stdout, exit 2 with a bad key', async () => {
    const r = await runCliHere(['doctor', '--api-url', sb.url, '--api-key', 'wrong-key', '--db', path.join(t.dir, 'cli', 'recon.duckdb'), '--reports', path.join(t.dir, 'cli', 'rep')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^FAIL {2}service +the service refused the key/m);
    expect(r.stdout).toMatch(/^OK {4}reports folder/m);
  }, 120_000);
});
