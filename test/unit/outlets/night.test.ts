// acceptance, the night: a run against the sandbox with every outlet configured delivers a mail
// whose attachment opens, one JSON document per run and URL matching its schema, start and success
// pings (start and fail for a run made to fail, a log entry naming the holder for a locked one), a strict
// Prometheus textfile, a results JSON and a JUnit file whose counts are the workbook's; an outlet that is
// down changes nothing else; and the API key is in none of it.
import ExcelJS from 'exceljs';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandArgs, COMMAND_OPTIONS } from '../../../pipelines/config.js';
import { silentLogger } from '../../../src/log.js';
import { acquireLock } from '../../../src/ops/lock.js';
import { NotifyDocument } from '../../../src/outlets/notify-schema.js';
import { plantEveryKind, startSandbox, type Sandbox } from '../../../sandbox/index.js';
import { runNightly, type NightlyOutcome } from '../../../pipelines/nightly.js';
import { tempDir } from '../../helpers/recon.js';
import { deadPort, mimePart, parsePrometheusText, startReceiver, startSmtp, subjectOf, type Receiver, type SmtpStub } from '../../helpers/outlets.js';
import { filesContaining } from '../../helpers/whole-store.js';

const KEY = 'sk_live_OUTLETS_k3y_29zQ';
const SMTP_PASS = 'smtp-Pa55:w0rd';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const fast = { timeoutMs: 4_000, attempts: 2, sleep: async () => {} };

let sb: Sandbox;
let hooks: Receiver;
let pings: Receiver;
let smtp: SmtpStub;
const cleanups: Array<() => void> = [];
beforeAll(async () => {
  sb = await startSandbox({ seed: 29, disbursements: 120, payoutsPerDisbursement: 5, rateLimit: { limit: 1_000_000 }, apiKey: KEY,
    anomalies: { plant: plantEveryKind(12) } });
  hooks = await startReceiver();
  pings = await startReceiver();
  smtp = await startSmtp({ auth: { user: 'recon', pass: SMTP_PASS } });
}, 60_000);
afterAll(async () => {
  await Promise.all([sb?.close(), hooks?.close(), pings?.close(), smtp?.close()]);
  for (const c of cleanups) c();
});

/** Forgets what the stand-ins received so far (the tests of this file share them). */
function reset(): void {
  hooks.received.length = 0;
  pings.received.length = 0;
  smtp.mails.length = 0;
}

function folder(): string {
  const t = tempDir('recon-outlets-');
  cleanups.push(t.cleanup);
  return t.dir;
}

/** `recon run` in-process with every outlet configured by its flag; `over` replaces flags' values. */
async function night(dir: string, over: { apiUrl?: string; smtpPort?: number; notify?: string[]; ping?: string } = {}): Promise<NightlyOutcome> {
  const smtpUrl = `smtp://recon:${encodeURIComponent(SMTP_PASS)}@127.0.0.1:${over.smtpPort ?? smtp.port}?requireTLS=true&tls.rejectUnauthorized=false`;
  const notify = (over.notify ?? [`${hooks.url}/slack`, `${hooks.url}/ops`]).flatMap((u) => ['--notify-url', u]);
  const { config } = parseCommandArgs([
    '--api-url', over.apiUrl ?? sb.url, '--api-key', KEY, '--db', path.join(dir, 'recon.duckdb'), '--reports', path.join(dir, 'reports'),
    '--rate-per-minute', '60000', '--sample-budget', '0',
    '--mail-to', 'finance@example.com', '--mail-from', 'recon@example.com', '--smtp-url', smtpUrl, ...notify,
    '--ping-url', over.ping ?? `${pings.url}/ping/uuid-1`, '--metrics-file', path.join(dir, 'metrics', 'recon.prom'), '--junit', path.join(dir, 'junit.xml'),
  ], COMMAND_OPTIONS.run, {}, {});
  return runNightly(config, silentLogger, { tuning: { retryBaseMs: 5 }, handleSignals: false, outlets: { limits: fast } });
}

/** The workbook's Exceptions sheet: the findings of the run (not those it resolved) per check. */
async function workbookCounts(file: string): Promise<Map<string, number>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const sheet = wb.getWorksheet('Exceptions')!;
  const header = (sheet.getRow(1).values as unknown[]).map(String);
  const [check, status] = ['Check', 'Status'].map((h) => header.indexOf(h));
  const counts = new Map<string, number>();
  sheet.eachRow((row, n) => {
    if (n === 1 || String(row.getCell(status!).value) === 'resolved') return;
    const id = String(row.getCell(check!).value);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  });
  return counts;
}

interface Results {
  metadata: { invocation_id: string; exit_code: number; findings: { total: number }; money_at_stake: Array<{ currency: string; amount: string }> };
  results: Array<{ unique_id: string; status: string; failures: number;
    findings: Array<{ key: string; root: string | null; status: string; currency: string | null; at_stake: string | null }> }>;
}

describe('a night with every outlet configured', () => {
  let dir: string;
  let outcome: NightlyOutcome;
  beforeAll(async () => {
    dir = folder();
    reset();
    outcome = await night(dir);
  }, 120_000);

  it('completes as without outlets (exit 1: planted anomalies) and says what each delivered', () => {
    expect(outcome.code).toBe(1);
    expect(outcome.outlets!.warnings).toEqual([]);
    expect(outcome.outlets!.delivered.map((d) => d.split(':')[0]).sort()).toEqual(['alerts', 'junit', 'mail', 'metrics', 'ping', 'results']);
  });

  it('mails the summary over STARTTLS with the workbook attached, and the attachment opens', async () => {
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail).toMatchObject({ secure: true, user: 'recon', to: ['finance@example.com'] });
    expect(subjectOf(mail.raw)).toBe(`recon run: ${outcome.checks!.actionable} findings need a person (${outcome.checks!.byStatus.new} new)`);
    const attachment = mimePart(mail.raw, XLSX)!;
    expect(attachment.equals(readFileSync(outcome.workbook!))).toBe(true);
    const copy = path.join(dir, 'attached.xlsx');
    writeFileSync(copy, attachment);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(copy);
    expect(wb.getWorksheet('Exceptions')).toBeDefined();
    expect(mimePart(mail.raw, 'text/plain')!.toString()).toMatch(/Top 5 findings\n\s+1\. /);
  });

  it('posts one document per URL, matching its schema, with no key header and no redirect', () => {
    expect(hooks.received.map((r) => `${r.method} ${r.path}`).sort()).toEqual(['POST /ops', 'POST /slack']);
    for (const r of hooks.received) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-authentication-key']).toBeUndefined();
      const doc = NotifyDocument.parse(JSON.parse(r.body));
      expect(doc).toMatchObject({ kind: 'run', outcome: 'findings', exit_code: 1, run_id: outcome.runId });
      expect(doc.findings!.need_person).toBe(outcome.checks!.actionable);
      expect(doc.top_findings.length).toBe(5);
    }
  });

  it('pings /start when the run begins, then the bare URL', () => {
    expect(pings.received.map((r) => r.path)).toEqual(['/ping/uuid-1/start', '/ping/uuid-1']);
    expect(pings.received[1]!.body).toMatch(/findings need a person/);
  });

  it('writes a metrics file a strict parser of the text format reads, with the night\'s figures', () => {
    const m = parsePrometheusText(readFileSync(path.join(dir, 'metrics', 'recon.prom'), 'utf8'));
    const sum = (name: string) => m.get(name)!.samples.reduce((n, s) => n + s.value, 0);
    expect(m.get('recon_last_run_exit_code')!.samples[0]!.value).toBe(1);
    expect(sum('recon_findings')).toBe(outcome.checks!.findings);
    expect(sum('recon_last_run_requests')).toBeGreaterThan(100);
    expect(m.get('recon_snapshot_age_seconds')!.samples[0]!.value).toBeGreaterThanOrEqual(0);
    expect(m.get('recon_money_at_stake')!.samples.length).toBeGreaterThan(0);
  });

  it('writes a results JSON beside the workbook and a JUnit file whose counts are the workbook\'s', async () => {
    const expected = await workbookCounts(outcome.workbook!);
    const results = JSON.parse(readFileSync(outcome.workbook!.replace(/\.xlsx$/, '.json'), 'utf8')) as Results;
    expect(results.metadata).toMatchObject({ invocation_id: outcome.runId, exit_code: 1, findings: { total: outcome.checks!.findings } });
    expect(readFileSync(path.join(dir, 'reports', 'recon-latest.json'), 'utf8')).toBe(readFileSync(outcome.workbook!.replace(/\.xlsx$/, '.json'), 'utf8'));
    const failures = new Map(results.results.filter((r) => r.failures > 0).map((r) => [r.unique_id.replace('check.recon.', ''), r.failures]));
    expect(failures).toEqual(expected);
    const all = results.results.flatMap((r) => r.findings);
    const roots = new Set(all.filter((f) => f.root === null).map((f) => f.key));
    for (const r of results.results) {
      expect(r.findings).toHaveLength(r.failures);
      // a repeat names a root finding of the run, and carries no money of its own
      for (const f of r.findings.filter((x) => x.root !== null)) {
        expect(roots.has(f.root!), f.key).toBe(true);
        expect(f.at_stake).toBeNull();
      }
      expect(r.failures === 0 ? ['pass'] : ['fail', 'warn']).toContain(r.status);
    }
    expect(roots.size).toBeLessThan(all.length); // the planted night has causes reported more than once
    // the causes' money, each once, adds up to the run's money at stake per currency (nothing acknowledged yet)
    const sums = new Map<string, number>();
    for (const f of all) if (f.at_stake !== null && f.currency) sums.set(f.currency, (sums.get(f.currency) ?? 0) + Number(f.at_stake));
    expect(results.metadata.money_at_stake.length).toBeGreaterThan(0);
    for (const m of results.metadata.money_at_stake) expect(sums.get(m.currency), m.currency).toBeCloseTo(Number(m.amount), 3);
    expect(results.results.length).toBe(outcome.checks!.checks.length);

    const xml = readFileSync(path.join(dir, 'junit.xml'), 'utf8');
    const suites = [...xml.matchAll(/<testsuite name="([^"]+)"[^>]* tests="(\d+)" failures="(\d+)"/g)];
    expect(suites.length).toBe(outcome.checks!.checks.length);
    const junitFailures = new Map(suites.filter((s) => s[3] !== '0').map((s) => [s[1]!, Number(s[3])]));
    expect(junitFailures).toEqual(expected); // nothing acknowledged in a first night: every finding is a failure
    // a test case per finding, its name unique within its class (CI tools merge cases that share one)
    const cases = [...xml.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(new Set(cases).size).toBe(cases.length);
    expect(xml).toMatch(new RegExp(`<testsuites name="recon run ${outcome.runId}" tests="\\d+" failures="${outcome.checks!.actionable}"`));
  });

  it('puts the API key and the SMTP password in none of it', () => {
    expect(filesContaining(dir, KEY)).toEqual([]);
    expect(filesContaining(dir, SMTP_PASS)).toEqual([]);
    const sent = [...hooks.received, ...pings.received].map((r) => JSON.stringify(r)).join('\n') + smtp.mails.map((m) => m.raw).join('\n');
    expect(sent).not.toContain(KEY);
    expect(sent).not.toContain(SMTP_PASS);
  });
});

describe('nights that do not complete, and outlets that are down', () => {
  it('a run made to fail pings start then fail, mails and posts the reason, and says so in the metrics and JUnit', async () => {
    const dir = folder();
    reset();
    const out = await night(dir, { apiUrl: `http://127.0.0.1:${await deadPort()}` });
    expect(out.code).toBe(2);
    expect(out.outlets!.warnings).toEqual([]);
    expect(pings.received.map((r) => r.path)).toEqual(['/ping/uuid-1/start', '/ping/uuid-1/fail']);
    expect(pings.received[1]!.body).toMatch(/cannot reach|refused/i);
    expect(subjectOf(smtp.mails[0]!.raw)).toMatch(/^recon run FAILED: /);
    expect(mimePart(smtp.mails[0]!.raw, 'text/plain')!.toString()).toMatch(/What to check\n\s+- /);
    const doc = NotifyDocument.parse(JSON.parse(hooks.received[0]!.body));
    expect(doc).toMatchObject({ outcome: 'failed', exit_code: 2, run_id: out.runId });
    const m = parsePrometheusText(readFileSync(path.join(dir, 'metrics', 'recon.prom'), 'utf8'));
    expect(m.get('recon_last_run_success')!.samples[0]!.value).toBe(0);
    expect(readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toMatch(/<error message="[^"]*(refused|reach)[^"]*" type="run_failed"/i);
  });

  it('a locked run (exit 3) pings only a log entry naming the lock holder, and mails and posts nothing', async () => {
    const dir = folder();
    reset();
    const lock = await acquireLock(path.join(dir, 'recon.duckdb.lock'), { command: 'recon run (the other one)' });
    try {
      const out = await night(dir);
      expect(out.code).toBe(3);
      expect(pings.received.map((r) => r.path)).toEqual(['/ping/uuid-1/log']);
      expect(pings.received[0]!.body).toContain(`pid ${process.pid}`);
      expect(pings.received[0]!.body).toContain('recon run (the other one)');
      expect(hooks.received).toHaveLength(0);
      expect(smtp.mails).toHaveLength(0);
    } finally {
      await lock.release();
    }
  });

  it('a pinger that refuses /start still gets the end of the night, and the refusal is a warning', async () => {
    const pinger = await startReceiver((r) => ({ status: r.path.endsWith('/start') ? 503 : 200 }));
    try {
      const out = await night(folder(), { ping: `${pinger.url}/p` });
      expect(out.code).toBe(1);
      expect(pinger.received.map((r) => r.path)).toEqual(['/p/start', '/p/start', '/p']);
      expect(out.outlets!.warnings).toEqual(['ping /start: HTTP 503']);
    } finally {
      await pinger.close();
    }
  });

  it('SMTP, the webhook and the pinger all down: the same outcome, the results still written, three warnings', async () => {
    const dir = folder();
    const failing = await startReceiver(() => ({ status: 500 }));
    try {
      const out = await night(dir, { smtpPort: await deadPort(), notify: [failing.url], ping: `http://127.0.0.1:${await deadPort()}/ping` });
      expect(out.code).toBe(1);
      expect(out.checks!.findings).toBeGreaterThan(0);
      expect(out.outlets!.warnings).toHaveLength(3);
      expect(out.outlets!.warnings.join('\n')).toMatch(/mail not sent[\s\S]*alert not delivered to 1 of 1 URLs: HTTP 500|alert not delivered[\s\S]*mail not sent/);
      expect(out.outlets!.delivered.map((d) => d.split(':')[0]).sort()).toEqual(['junit', 'metrics', 'results']);
      expect(failing.received).toHaveLength(fast.attempts);
      expect(out.outlets!.warnings.join(' ')).not.toContain(SMTP_PASS);
    } finally {
      await failing.close();
    }
  });
});
