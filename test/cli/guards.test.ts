// What a command refuses before it spends the night or writes a byte, and what it says: a path the user names
// that is one of recon's own files, a statements folder that is not there, a config key that does not exist;
// and the small promises around them (the snapshot republished after a check, one line for a misuse,
// --version, --config in every --help).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { plantEveryKind } from '../../sandbox/index.js';
import { nightBeforeAll } from '../helpers/nightly.js';
import { runCliHere } from '../helpers/in-process.js';
import { query } from '../helpers/recon.js';

const night = nightBeforeAll({ seed: 8, disbursements: 150, payoutsPerDisbursement: 2, rateLimit: { limit: 1_000_000 },
  anomalies: { plant: plantEveryKind(4) } }, 1);

describe('paths the user names for recon to write', () => {
  it('never is the store: --budget-file onto it stops the run before anything is written, and the store survives', async () => {
    const before = readFileSync(night.db);
    const requests = night.sb.stats().requests.total;
    const r = await runCliHere(['run', '--api-url', night.sb.url, '--api-key', night.sb.apiKey, '--db', night.db,
      '--reports', path.join(night.dir, 'reports'), '--budget-file', night.db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^recon run: --budget-file \/ RECON_BUDGET_FILE .*recon\.duckdb is the live store .*: recon never writes over its own files; choose another path$/m);
    expect(readFileSync(night.db).equals(before)).toBe(true);
    expect(night.sb.stats().requests.total).toBe(requests);
  });

  it('never is the store, its downloaded files or its lock, for every option that names one (doctor says so too)', async () => {
    const files = path.join(night.dir, 'files');
    const cases: Array<[string, string, RegExp]> = [
      ['--metrics-file', path.join(files, 'recon.prom'), /recon's downloaded files/],
      ['--junit', `${night.db}.wal`, /the live store/],
      ['--log-file', `${night.db}.lock`, /the live store/],
      ['--published', night.db, /the live store/],
    ];
    for (const [flag, target, what] of cases) {
      const r = await runCliHere(['check', '--db', night.db, ...(flag === '--metrics-file' || flag === '--junit' ? [] : [flag, target])]);
      if (flag === '--log-file' || flag === '--published') {
        expect(r.code, `${flag}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(what);
      }
      const doctor = await runCliHere(['doctor', '--db', night.db, '--api-url', night.sb.url, '--api-key', night.sb.apiKey, flag, target]);
      expect(doctor.code, `${flag}: ${doctor.stdout}`).toBe(2);
      expect(doctor.stdout).toMatch(new RegExp(`^FAIL\\s+output paths\\s+${flag} / RECON_\\w+ .*${what.source}`, 'm'));
    }
    // the log under logs/ beside the store is what --log-file is for
    const log = path.join(night.dir, 'logs', 'mine.log');
    expect((await runCliHere(['check', '--db', night.db, '--log-file', log])).code).toBe(1);
    expect(existsSync(log)).toBe(true);
  });
});

describe('a statements folder that is not there', () => {
  it('stops recon run before its first request, naming the option', async () => {
    const requests = night.sb.stats().requests.total;
    const r = await runCliHere(['run', '--api-url', night.sb.url, '--api-key', night.sb.apiKey, '--db', path.join(night.dir, 'other.duckdb'),
      '--reports', path.join(night.dir, 'reports'), '--bank-dir', path.join(night.dir, 'no-such-folder')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^recon run: cannot read the folder .*no-such-folder: it does not exist; check --bank-dir \/ RECON_BANK_DIR$/m);
    expect(night.sb.stats().requests.total).toBe(requests);
    expect(existsSync(path.join(night.dir, 'other.duckdb'))).toBe(false);
  });
});

describe('the snapshot after recon check and recon report', () => {
  it('is published again, so recon sql shows the check run just made', async () => {
    const published = path.join(night.dir, 'published', 'recon.duckdb');
    const latest = async () => String((await query(published, 'SELECT max(run_id) AS r FROM check_runs'))[0]!.r);
    const before = await latest();
    const r = await runCliHere(['check', '--db', night.db]);
    expect(r.code).toBe(1);
    const run = /^run (\S+):/m.exec(r.stdout)![1]!;
    expect(run).not.toBe(before);
    expect(await latest()).toBe(run);
    const mtime = statSync(published).mtimeMs;
    expect((await runCliHere(['report', '--db', night.db, '--reports', path.join(night.dir, 'reports')])).code).toBe(1);
    expect(statSync(published).mtimeMs).toBeGreaterThan(mtime);
  });
});

describe('what a command says', () => {
  it('a finding key that does not exist: one line on stderr, no log line before it (exit 2)', async () => {
    const r = await runCliHere(['ack', 'nosuchkey', '--note', 'x', '--by', 'ana', '--db', night.db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('recon ack: no finding with key nosuchkey; see the Key column of the workbook or SELECT finding_key FROM open_exceptions\n');
  });

  it('its version, and --config and --log-level in every command\'s help', async () => {
    const v = await runCliHere(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^recon \d+\.\d+\.\d+\n$/);
    for (const command of ['run', 'check', 'ack', 'sql', 'doctor', 'prune', 'close']) {
      const help = await runCliHere([command, '--help']);
      expect(help.stdout, command).toMatch(/^ {2}--config X\s+RECON_CONFIG\s/m);
      expect(help.stdout, command).toMatch(/^ {2}--log-level X\s+RECON_LOG_LEVEL\s/m);
    }
  });

  it('a config file key that does not exist names the keys as they are written (a flag in camelCase)', async () => {
    const file = path.join(night.dir, 'config.json');
    writeFileSync(file, JSON.stringify({ lookback_days: 3 }));
    const r = await runCliHere(['check', '--db', night.db, '--config', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown setting "lookback_days" in the config file .*config\.json \(did you mean lookbackDays\?\); a key is its flag in camelCase \(--lookback-days: "lookbackDays"\)/);
  });
});
