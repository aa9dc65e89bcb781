// Every command tells its user what happened and what to do. Each case runs the CLI's dispatcher as the bin
// does (in this process: test/helpers/in-process.ts) and reads what it printed, its exit code and what it
// left on disk; what a person sees on a real terminal runs the built bin under tmux.
import { spawnSync } from 'node:child_process';
import ExcelJS from 'exceljs';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { plantEveryKind } from '../../sandbox/index.js';
import { query } from '../helpers/recon.js';
import { nightBeforeAll } from '../helpers/nightly.js';
import { CLI, waitFor } from '../helpers/child.js';
import { runCliHere } from '../helpers/in-process.js';
import { closest } from '../../src/suggest.js';

const night = nightBeforeAll({ seed: 14, disbursements: 120, payoutsPerDisbursement: 3, rateLimit: { limit: 1_000_000 }, anomalies: { plant: plantEveryKind(6) } }, 1);

describe('recon ack', () => {
  it('an acknowledgement shows at once in the snapshot accountants query, with its note', async () => {
    const open = await runCliHere(['sql', '--db', night.db, '--format', 'json', "SELECT finding_key FROM open_exceptions WHERE state <> 'acknowledged' ORDER BY finding_key LIMIT 1"]);
    expect(open.code).toBe(0);
    const key = (JSON.parse(open.stdout) as Array<{ finding_key: string }>)[0]!.finding_key;
    const ack = await runCliHere(['ack', '--db', night.db, key, '--note', 'ticket FIN-14 confirmed by provider'], { RECON_ACK_BY: 'ana' });
    expect(ack.code, ack.stderr).toBe(0);
    const after = await runCliHere(['sql', '--db', night.db, '--format', 'json', `SELECT state, ack_note FROM open_exceptions WHERE finding_key = '${key}'`]);
    expect(JSON.parse(after.stdout)).toEqual([{ state: 'acknowledged', ack_note: 'ticket FIN-14 confirmed by provider' }]);
  });
});

describe('recon sql --out', () => {
  it('a folder that cannot be written is a usage error (exit 2, one line), never an unhandled stream error', async () => {
    const blocker = path.join(night.dir, 'a-file');
    writeFileSync(blocker, 'x');
    const r = await runCliHere(['sql', '--db', night.db, '--format', 'csv', '--out', path.join(blocker, 'q.csv'), 'SELECT 1 AS n']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/recon sql: .*--out/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack
  });

  it('a missing folder is made and the format follows the extension', async () => {
    const out = path.join(night.dir, 'missing', 'q.csv');
    const r = await runCliHere(['sql', '--db', night.db, '--out', out, "SELECT 'a' AS x, 1 AS n"]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('"x","n"\r\n"a",1\r\n');
  });
});

describe('usage errors', () => {
  it('--since with a date that does not exist is refused, naming the flag', async () => {
    const r = await runCliHere(['sync', '--db', path.join(night.dir, 'since', 'recon.duckdb'), '--api-url', night.sb.url, '--api-key', night.sb.apiKey, '--since', '2026-99-01']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--since/);
    expect(r.stderr).toMatch(/YYYY-MM-DD/);
    expect(existsSync(path.join(night.dir, 'since', 'recon.duckdb'))).toBe(false);
  });

  it('check/report/close/ack on a store that does not exist say so and leave nothing behind', async () => {
    const typo = path.join(night.dir, 'typo', 'recon.duckdb');
    for (const args of [['check'], ['report'], ['close', '--month', '2026-10'], ['ack', 'k', '--note', 'n']]) {
      const r = await runCliHere([...args, '--db', typo]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/no store at .*typo.*recon run/);
    }
    expect(existsSync(typo)).toBe(false);
  });

  it('a bad --cron or --tz names the flag and the variable, without a stack', async () => {
    const cron = await runCliHere(['schedule', '--db', night.db, '--cron', '99 * * * *']);
    expect(cron.code).toBe(2);
    expect(cron.stderr).toMatch(/--cron/);
    expect(cron.stderr).toMatch(/RECON_CRON/);
    expect(cron.stderr).not.toMatch(/\n\s+at /);
    const tz = await runCliHere(['schedule', '--db', night.db, '--tz', 'Mars/Olympus']);
    expect(tz.code).toBe(2);
    expect(tz.stderr).toMatch(/--tz/);
    expect(tz.stderr).toMatch(/Mars\/Olympus/);
  });

  it('an unknown flag, a mistyped command and an unknown config key get a did-you-mean and a pointer to --help', async () => {
    const flag = await runCliHere(['run', '--repots', 'x']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/unknown option --repots \(did you mean --reports\?\)/);
    expect(flag.stderr).toMatch(/recon run --help/);
    const cmd = await runCliHere(['runn']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toMatch(/did you mean (recon )?run\?/);
    expect(cmd.stderr.split('\n').length).toBeLessThan(5); // not the whole help
    const conf = path.join(night.dir, 'recon.json');
    writeFileSync(conf, JSON.stringify({ db: night.db, reprots: 'x' }));
    const key = await runCliHere(['check', '--config', conf]);
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(/reprots/);
    expect(key.stderr).toMatch(/did you mean reports\?/);
  });

  it('closest() suggests only near misses', () => {
    expect(closest('sycn', ['sync', 'run', 'report'])).toBe('sync');
    expect(closest('rnu', ['sync', 'run', 'report'])).toBe('run');
    expect(closest('zzzzzz', ['sync', 'run', 'report'])).toBeNull();
  });

  it('an --api-url nothing listens on is refused at once, naming the flag and the variable', async () => {
    const fresh = path.join(night.dir, 'unreach', 'recon.duckdb');
    const r = await runCliHere(['sync', '--db', fresh, '--api-url', 'http://127.0.0.1:9', '--api-key', 'k']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--api-url/);
    expect(r.stderr).toMatch(/PAYMENTS_API_URL/);
    // refused before any request: no run row claims a sync happened
    if (existsSync(fresh)) expect(await query(fresh, "SELECT count(*)::INT AS n FROM runs WHERE status = 'succeeded'")).toEqual([{ n: 0 }]);
  });

  it('an unwritable --reports is refused before the sync starts', async () => {
    const blocker = path.join(night.dir, 'reports-file');
    writeFileSync(blocker, 'x');
    const fresh = path.join(night.dir, 'unwritable', 'recon.duckdb');
    const r = await runCliHere(['run', '--db', fresh, '--api-url', night.sb.url, '--api-key', night.sb.apiKey, '--reports', path.join(blocker, 'reports')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--reports/);
    expect(r.stderr).not.toMatch(/ENOTDIR|ENOENT/);
    if (existsSync(fresh)) expect(await query(fresh, 'SELECT count(*)::INT AS n FROM disbursements')).toEqual([{ n: 0 }]);
  });
});

describe('what a run and a sync print', () => {
  it('run prints the night in plain lines (findings, workbook, exit meaning); sync prints what it read', async () => {
    const own = path.join(night.dir, 'own');
    mkdirSync(own, { recursive: true });
    const odb = path.join(own, 'recon.duckdb');
    const sync = await runCliHere(['sync', '--db', odb, '--api-url', night.sb.url, '--api-key', night.sb.apiKey, '--rate-per-minute', '60000']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stdout).toMatch(/disbursements: 120 listed, 120 read/);
    const run = await runCliHere(['run', '--db', odb, '--reports', path.join(own, 'reports'), '--api-url', night.sb.url, '--api-key', night.sb.apiKey, '--rate-per-minute', '60000']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/disbursements: 120 listed, 0 read, .*120 unchanged/);
    expect(run.stdout).toMatch(/findings: \d+ need a person/);
    expect(run.stdout).toMatch(/workbook: .*\.xlsx/);
    expect(run.stdout).toMatch(/exit 1: findings need a person/);
  });
});

// the progress line and bar: test/cli/progress.test.ts (an injected clock, no night needed)

const tmux = spawnSync('tmux', ['-V']).status === 0;
describe.skipIf(!tmux)('on a real terminal (tmux)', () => {
  it('a person sees one progress bar and readable lines, never the JSON log, which goes to a file', async () => {
    const own = path.join(night.dir, 'tty');
    mkdirSync(own, { recursive: true });
    const raw = path.join(own, 'screen.raw');
    const socket = `recon-usage-${process.pid}`;
    const cmd = [process.execPath, CLI, 'run', '--db', path.join(own, 'recon.duckdb'), '--reports', path.join(own, 'reports'),
      '--api-url', night.sb.url, '--api-key', night.sb.apiKey, '--rate-per-minute', '60000'].map((a) => `'${a}'`).join(' ');
    const t = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
    try {
      expect(t('new-session', '-d', '-x', '150', '-y', '40', `sleep 0.5; env -u CI ${cmd}; echo "EXIT=$?"; sleep 60`).status).toBe(0);
      t('pipe-pane', '-o', `cat >> '${raw}'`);
      const ended = await waitFor(() => t('capture-pane', '-p').stdout.includes('EXIT='), 60_000, 100);
      expect(ended).toBe(true);
      const screen = t('capture-pane', '-p').stdout;
      expect(screen).toMatch(/EXIT=1/);
      expect(screen).not.toMatch(/"level":/);
      expect(screen).toMatch(/findings: \d+ need a person/);
      expect(screen).toMatch(/log: .*logs\/recon\.log/);
      // the bar was drawn (and redrawn in place) while the sync ran
      expect(readFileSync(raw, 'utf8')).toMatch(/\r\x1b\[2Kdisbursements [█░]+ \d+\/120 /);
      expect(readFileSync(path.join(own, 'logs', 'recon.log'), 'utf8')).toMatch(/"msg":/);
    } finally {
      t('kill-server');
    }
  });
});

describe('credentials in --api-url', () => {
  it('are refused with a clear message that does not repeat them, and nothing is stored', async () => {
    const fresh = path.join(night.dir, 'creds', 'recon.duckdb');
    const r = await runCliHere(['sync', '--db', fresh, '--api-url', 'http://acct:pw-s3cret@127.0.0.1:9', '--api-key', 'k']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--api-url \/ PAYMENTS_API_URL .*must not carry credentials/);
    expect(r.stderr).not.toMatch(/pw-s3cret/);
    expect(existsSync(fresh)).toBe(false);
  });
});

describe('amounts accountants can read in SQL', () => {
  it('every money column of monthly_summary has a *_major companion, and --format xlsx shows it as an amount of its currency', async () => {
    const json = await runCliHere(['sql', '--db', night.db, '--format', 'json', 'SELECT currency, disbursed_total, disbursed_total_major FROM monthly_summary ORDER BY currency LIMIT 5']);
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout) as Array<{ currency: string; disbursed_total: number; disbursed_total_major: number | string }>;
    expect(rows.length).toBeGreaterThan(0);
    const factor = (c: string) => ({ JPY: 1, CLP: 1, VUV: 1, MGA: 5, VND: 10, KWD: 1000, BHD: 1000, OMR: 1000, TND: 1000, LYD: 1000 } as Record<string, number>)[c] ?? 100;
    for (const r of rows) expect(Number(r.disbursed_total_major)).toBeCloseTo(r.disbursed_total / factor(r.currency), 6);
    const out = path.join(night.dir, 'summary.xlsx');
    const x = await runCliHere(['sql', '--db', night.db, '--out', out, 'SELECT month, currency, disbursed_total, disbursed_total_major FROM monthly_summary ORDER BY currency']);
    expect(x.code, x.stderr).toBe(0);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(out);
    const sheet = wb.worksheets[0]!;
    const cur = String(sheet.getRow(2).getCell(2).value);
    const cell = sheet.getRow(2).getCell(4);
    expect(typeof cell.value).toBe('number');
    expect(cell.numFmt).toBe(cur === 'JPY' ? '#,##0' : cur === 'KWD' ? '#,##0.000' : cur === 'MGA' ? '#,##0.0' : '#,##0.00');
  });
});
