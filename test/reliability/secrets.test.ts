// The API key never leaves the process except in its header. Runs of the CLI with a distinctive key (its
// dispatcher in this process, what it writes to stdout, stderr and fd 2 caught as a child's pipes would
// carry it), with faults so that errors are logged (including a service that echoes the key in its error
// details), then every byte they wrote is searched: log file, DuckDB files (store, WAL, published
// snapshot), downloaded blobs, workbooks (each inflated zip entry), stdout and stderr. Pre-signed links
// lose their signature in logs. http:// to anything but loopback is refused unless --insecure-http.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index.js';
import { query, tempDir } from '../helpers/recon.js';
import { logCount } from '../helpers/child.js';
import { runCliHere } from '../helpers/in-process.js';
import { buildDisbursement, startFakeService, type FakeService } from '../helpers/fake-service.js';
import { filesContaining, walk } from '../helpers/whole-store.js';

const SECRET = 'sk_live_SECRET_abc123XYZ';
const open: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c();
});
function folder(): string {
  const t = tempDir('recon-secrets-');
  open.push(t.cleanup);
  return t.dir;
}
function runArgs(url: string, dir: string, extra: string[] = []): string[] {
  return ['run', '--api-url', url, '--api-key', SECRET, '--db', path.join(dir, 'recon.duckdb'), '--reports', path.join(dir, 'reports'),
    '--log-file', path.join(dir, 'run.log'), '--rate-per-minute', '60000', '--sample-budget', '3', ...extra];
}
/** Everything a run left behind must be free of `needle`; returns the files searched. */
function assertNowhere(dir: string, outputs: string[], needle: string): number {
  expect(filesContaining(dir, needle)).toEqual([]);
  for (const o of outputs) expect(o.includes(needle), `output contains ${needle}`).toBe(false);
  return walk(dir).length;
}

describe('the API key', () => {
  it('echoed in every error path of a run that completes (child lists, files, downloads, payments, 429), is stored, published and written nowhere', async () => {
    const [a, b, c, good] = [buildDisbursement({ file: true }), buildDisbursement({ file: true }), buildDisbursement({ file: true }), buildDisbursement({ file: true })];
    const echo = (status: number) => ({ status, body: { title: 'Error', status, detail: `request with key ${SECRET} refused`, errors: [{ message: `key=${SECRET}` }] } });
    const fake = await startFakeService({
      disbursements: [a, b, c, good], apiKey: SECRET,
      override: (r) => {
        if (r.path === `/disbursements/${String(a.record.disbursement_id)}/refunds`) return echo(404);
        if (r.path === `/disbursements/${String(b.record.disbursement_id)}/adjustments`) return echo(422);
        if (r.path === `/disbursements/${String(c.record.disbursement_id)}/files`) return echo(422);
        if (r.path.startsWith('/files/') && r.path.includes(String(good.record.disbursement_id))) return { status: 404, body: `NoSuchKey ${SECRET}` };
        if (r.path.startsWith('/payments/')) return echo(403);
        if (r.path === '/disbursements' && r.attempt === 1) return { status: 429, headers: { 'retry-after': '1' }, body: { title: 'Too Many Requests', status: 429, detail: `slow down ${SECRET}` } };
        return undefined;
      },
    });
    open.push(() => fake.close());
    const dir = folder();
    const run = await runCliHere(runArgs(fake.url, dir), { RECON_LOG_LEVEL: 'debug' });
    expect(run.code, run.stderr).toBe(1); // completed: the echoing paths are findings on their disbursements
    const notes = await query(path.join(dir, 'recon.duckdb'), `SELECT sync_note FROM disbursements WHERE sync_status = 'incomplete' ORDER BY 1`);
    expect(notes.length).toBe(3);
    for (const n of notes) expect(String(n.sync_note)).toMatch(/\[redacted\]/);
    assertNowhere(dir, [run.stdout, run.stderr], SECRET);
  });

  it('appears nowhere a faulty nightly run wrote: log, store, snapshot, files, workbook, stdout, stderr', async () => {
    // the CLI backs off for real (0.5 s and up), so a small dataset keeps it short
    const sb = await startSandbox({ seed: 51, disbursements: 12, payoutsPerDisbursement: 4, apiKey: SECRET, serverTimeoutMs: 100,
      anomalies: { rate: 0.5 }, rateLimit: { limit: 1_000_000 }, faults: { rate: 0.15, kinds: ['500', '502', '503', 'html', 'slow', 'reset', 'truncated'] } });
    open.push(() => sb.close());
    const dir = folder();
    const run = await runCliHere(runArgs(sb.url, dir), { RECON_LOG_LEVEL: 'debug' });
    expect(run.code, run.stderr).toBe(1);
    const log = path.join(dir, 'run.log');
    expect(logCount(log, 'transient failure, retrying')).toBeGreaterThan(2); // errors were logged
    const searched = assertNowhere(dir, [run.stdout, run.stderr], SECRET);
    expect(walk(dir).some((f) => f.endsWith('.xlsx'))).toBe(true);
    expect(walk(dir).some((f) => f.includes('published'))).toBe(true);
    expect(searched).toBeGreaterThan(5);
  });

  it('is scrubbed from errors even when the service echoes it, in the log, runs.error and stderr of a failed run', async () => {
    const d = buildDisbursement({ file: true });
    const echo = (status: number) => ({ status, body: { title: 'Unauthorized', status, detail: `key ${SECRET} is not allowed here` } });
    const fake = await startFakeService({
      disbursements: [d, buildDisbursement({ file: true })], apiKey: SECRET,
      override: (r) => (r.path.endsWith('/payouts') && r.attempt === 1 ? echo(500)
        : r.path.startsWith('/files/') && r.attempt <= 2 ? { status: 503, body: 'try later' } : undefined),
    });
    open.push(() => fake.close());
    const dir = folder();
    const first = await runCliHere(runArgs(fake.url, dir, ['--sample-budget', '0']));
    expect(first.code, first.stderr).toBe(0);
    // then the list itself refuses, echoing the key: a terminal error that fails the run
    fake.set({ override: (r) => (r.path === '/disbursements' ? echo(422) : undefined) });
    const second = await runCliHere(runArgs(fake.url, dir, ['--sample-budget', '0']));
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/key \[redacted\] is not allowed here/);
    const [failed] = await query(path.join(dir, 'recon.duckdb'), `SELECT status, error FROM runs WHERE status = 'failed'`);
    expect(String(failed!.error)).toMatch(/\[redacted\]/);

    const logText = readFileSync(path.join(dir, 'run.log'), 'utf8');
    expect(logText).toMatch(/key \[redacted\] is not allowed here/); // the echo was logged, scrubbed
    assertNowhere(dir, [first.stdout, first.stderr, second.stdout, second.stderr], SECRET);
    // download retries were logged with the link's query replaced, never its signature
    expect(logText).toMatch(/\/files\/[^"]+\?\[redacted\]/);
    expect(fake.signatures.length).toBeGreaterThan(0);
    for (const s of fake.signatures) expect(logText.includes(s)).toBe(false);
    expect(logText).not.toMatch(/signature=/);
  });
});

describe('plain http', () => {
  let fake: FakeService;
  it('is refused for a host that is not loopback, look-alike names included, unless --insecure-http is given', async () => {
    fake = await startFakeService({ disbursements: [buildDisbursement()] });
    open.push(() => fake.close());
    const dir = folder();
    const sync = (url: string, extra: string[] = []) => runCliHere(['sync', '--api-url', url, '--api-key', SECRET, '--db', path.join(dir, 'recon.duckdb'),
      '--rate-per-minute', '60000', '--sample-budget', '0', ...extra]);
    for (const url of ['http://payments.example.com', 'http://127.0.0.1.nip.io', 'http://localhost.example.com:8080', 'http://10.0.0.7']) {
      const refused = await sync(url);
      expect(refused.code, url).toBe(2);
      expect(refused.stderr, url).toMatch(/refusing to send the API key over plain http:\/\//);
      expect(refused.stderr + refused.stdout).not.toContain(SECRET);
    }
    // with the flag the run goes ahead (and fails later, on the unreachable host: not a refusal)
    const allowed = await sync('http://payments.invalid', ['--insecure-http']);
    expect(allowed.code).toBe(2);
    expect(allowed.stderr).not.toMatch(/refusing/);
    expect(allowed.stderr).toMatch(/payments\.invalid|ENOTFOUND|EAI_AGAIN/);
    // loopback by address or name is plain http's only home
    const local = await sync(fake.url.replace('127.0.0.1', 'localhost'), ['--api-key', fake.apiKey]);
    expect(local.code, local.stderr).toBe(0);
  });
});
