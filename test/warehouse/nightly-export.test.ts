// recon run --export-postgres on a sandbox night: PostgreSQL holds what `recon sql` shows on the snapshot,
// a failed export is a warning that leaves the night's exit code, and the password is never written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { plantEveryKind, startSandbox, type Sandbox } from '../../sandbox/index.js';
import { parseCommandArgs, COMMAND_OPTIONS } from '../../pipelines/config.js';
import { runDoctor } from '../../pipelines/doctor.js';
import { nightlyOnce } from '../helpers/nightly.js';
import { runCliHere } from '../helpers/in-process.js';
import { filesContaining } from '../helpers/whole-store.js';
import { postgresBinDir, postgresForSuite, provisionExport } from '../helpers/postgres.js';
import { query } from '../helpers/recon.js';
import { dirPerTest } from '../helpers/temp-dir.js';

const PASSWORD = 'night-Pw-41c9e0d2';
let sb: Sandbox;

describe.skipIf(postgresBinDir() === null)('recon run --export-postgres', () => {
  const server = postgresForSuite((s) =>
    provisionExport(s, { database: 'finance', schema: 'recon', role: 'recon_night', password: PASSWORD }));
  const t = dirPerTest();
  beforeAll(async () => {
    sb = await startSandbox({ seed: 7, disbursements: 120, payoutsPerDisbursement: 4, rateLimit: { limit: 1_000_000 }, anomalies: { plant: plantEveryKind(12) } });
  }, 60_000);
  afterAll(async () => {
    await sb?.close();
  });

  it('exports the night after it is published: sums per currency in PostgreSQL equal recon sql\'s on the snapshot', async () => {
    const url = server.url('recon_night', PASSWORD, 'finance');
    const plain = await nightlyOnce(sb, t.dir, ['--export-postgres', url, '--log-file', path.join(t.dir, 'recon.log')]);
    expect(plain.outcome.code).toBe(1); // the sandbox's planted anomalies
    expect(plain.outcome.export?.warning).toBeNull();
    expect(plain.outcome.export?.result?.replaced.length).toBeGreaterThan(1);
    const db = path.join(t.dir, 'recon.duckdb');
    for (const [what, sql] of [
      ['payouts', 'SELECT currency, CAST(sum(amount) AS VARCHAR) AS total, CAST(count(*) AS VARCHAR) AS n FROM payouts GROUP BY currency ORDER BY currency'],
      ['disbursed', 'SELECT currency, CAST(sum(disbursed_total) AS VARCHAR) AS total, CAST(sum(disbursements) AS VARCHAR) AS n FROM monthly_summary GROUP BY currency ORDER BY currency'],
      ['open findings', "SELECT currency, CAST(sum(difference) AS VARCHAR) AS total, CAST(count(*) AS VARCHAR) AS n FROM open_exceptions WHERE currency IS NOT NULL GROUP BY currency ORDER BY currency"],
    ] as const) {
      const snap = await runCliHere(['sql', '--db', db, '--format', 'json', sql]);
      expect(snap.code, snap.stderr).toBe(0);
      const fromPg = await server.query(sql.replace(/CAST\((.*?) AS VARCHAR\)/g, '($1)::text').replace(/FROM (\w+)/, 'FROM recon.$1'), [], 'finance');
      expect(fromPg, what).toEqual(JSON.parse(snap.stdout));
      expect(fromPg.length, what).toBeGreaterThan(0);
    }
    // runs.options records the URL without its password; the password is in no file the night wrote
    const [run] = await query(db, `SELECT CAST(options AS VARCHAR) AS o, warnings FROM runs WHERE command = 'run'`);
    expect(String(run!.o)).toContain('recon_night@127.0.0.1');
    expect(run!.warnings).toBeNull();
    expect(filesContaining(t.dir, PASSWORD)).toEqual([]);
    const [pgRun] = await server.query<{ o: string }>(`SELECT options::text AS o FROM recon.runs WHERE command = 'run'`, [], 'finance');
    expect(pgRun!.o).not.toContain(PASSWORD);
  });

  it('keeps the night\'s exit code when the export fails: a warning on stderr, the summary and runs.warnings, never the password', async () => {
    const wrong = server.url('recon_night', `${PASSWORD}-wrong`, 'finance');
    const db = path.join(t.dir, 'recon.duckdb');
    const r = await runCliHere(['run', '--api-url', sb.url, '--api-key', sb.apiKey, '--db', db, '--reports', path.join(t.dir, 'reports'),
      '--rate-per-minute', '60000', '--sample-budget', '0', '--log-file', path.join(t.dir, 'recon.log')], { RECON_EXPORT_POSTGRES_URL: wrong });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/warning: export to PostgreSQL failed: .*password authentication failed.*\(the night's outcome is unchanged\)/);
    expect(r.stdout).toMatch(/warning: export to PostgreSQL failed: .*\(the outcome is unchanged\)\n {2}exit 1/);
    const [night] = await query(db, `SELECT status, warnings FROM runs WHERE command = 'run'`);
    expect(night!.status).toBe('succeeded');
    expect(String(night!.warnings)).toMatch(/^export to PostgreSQL failed: .*check the user and password/);
    const [exp] = await query(db, `SELECT status FROM runs WHERE command = 'export'`);
    expect(exp!.status).toBe('failed');
    expect(`${r.stdout}${r.stderr}${readFileSync(path.join(t.dir, 'recon.log'), 'utf8')}`).not.toContain(PASSWORD);
    expect(filesContaining(t.dir, PASSWORD)).toEqual([]);
  });

  it('doctor checks the connection and the role\'s rights', async () => {
    const doctor = async (url: string, schema = 'recon') => {
      const { config } = parseCommandArgs(['--api-url', sb.url, '--api-key', sb.apiKey, '--db', path.join(t.dir, 'recon.duckdb'), '--reports', t.dir,
        '--export-postgres', url, '--pg-schema', schema], COMMAND_OPTIONS.doctor, {}, {});
      return (await runDoctor(config)).lines.find((l) => l.check === 'postgres');
    };
    expect(await doctor(server.url('recon_night', PASSWORD, 'finance'))).toMatchObject({ verdict: 'OK', reason: expect.stringMatching(/may write schema recon/) });
    expect(await doctor(server.url('recon_night', PASSWORD, 'finance'), 'elsewhere')).toMatchObject({ verdict: 'FAIL', reason: expect.stringMatching(/may not create it; CREATE SCHEMA elsewhere AUTHORIZATION recon_night/) });
    const wrong = await doctor(server.url('recon_night', 'nope-nope', 'finance'));
    expect(wrong).toMatchObject({ verdict: 'FAIL', reason: expect.stringMatching(/password authentication failed/) });
    expect(wrong!.reason).not.toContain('nope-nope');
  });
});
