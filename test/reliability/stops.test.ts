// waits that end, and a status that tells the truth. A Retry-After above the
// interface's 10-minute block stops the run with a clear reason; SIGTERM during a 429 pause ends the run
// within a second or two, recorded as interrupted; a run is 'succeeded' only after its snapshot is
// published, and a failed publish is a failed run with its reason.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { query, tempDir } from '../helpers/recon.js';
import { logCount, startCli, waitFor } from '../helpers/child.js';
import { buildDisbursement, startFakeService, type FakeService } from '../helpers/fake-service.js';
import { syncFake } from '../helpers/whole-store.js';
import { parseCommandArgs, COMMAND_OPTIONS } from '../../pipelines/config.js';
import { withRun } from '../../pipelines/run.js';
import { runSettings } from '../../pipelines/settings.js';
import { silentLogger } from '../../src/log.js';

const open: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c();
});
function folder(): string {
  const t = tempDir('recon-stops-');
  open.push(t.cleanup);
  return t.dir;
}
async function fake(override: Parameters<typeof startFakeService>[0]['override']): Promise<FakeService> {
  const f = await startFakeService({ disbursements: [buildDisbursement(), buildDisbursement()], override });
  open.push(() => f.close());
  return f;
}
const tooMany = (seconds: number) => ({ status: 429, headers: { 'retry-after': String(seconds) }, body: { title: 'Too Many Requests', status: 429 } });

describe('bounded, interruptible waits', () => {
  it('a Retry-After of a year stops the run at once with the reason, instead of holding the lock', async () => {
    const f = await fake((r) => (r.path === '/disbursements' ? tooMany(31_536_000) : undefined));
    const db = path.join(folder(), 'recon.duckdb');
    const run = await syncFake(f, db);
    expect(run.code).toBe(2);
    const [row] = await query(db, 'SELECT status, error FROM runs');
    expect(row).toMatchObject({ status: 'failed', error: expect.stringMatching(/asks to wait 525600 min \(Retry-After\), more than the interface's 10-minute block/) });
  });

  it('SIGTERM during a 10-minute 429 pause ends the run promptly, recorded as interrupted', async () => {
    const f = await fake((r) => (r.path === '/disbursements' ? tooMany(600) : undefined));
    const dir = folder();
    const log = path.join(dir, 'sync.log');
    const { child, done } = startCli(['sync', '--api-url', f.url, '--api-key', f.apiKey, '--db', path.join(dir, 'recon.duckdb'), '--log-file', log]);
    expect(await waitFor(() => logCount(log, '429 from the payments service: no request leaves for 600 s (another program on this IP may be using the shared 500/min budget)') > 0, 20_000, 20)).toBe(true);
    child.kill('SIGTERM');
    let ended = false;
    void done.then(() => (ended = true));
    // without an interruptible sleep the process would stay for the whole 600 s
    expect(await waitFor(() => ended, 15_000, 20)).toBe(true);
    const out = await done;
    expect(out.code).toBe(2);
    const [row] = await query(path.join(dir, 'recon.duckdb'), 'SELECT status FROM runs');
    expect(row!.status).toBe('interrupted');
  }, 40_000);
});

describe('succeeded only once published', () => {
  it('is recorded as publishing while the snapshot is published, succeeded after, failed with the reason when publishing fails', async () => {
    const dir = folder();
    const { config } = parseCommandArgs(['--db', path.join(dir, 'recon.duckdb')], COMMAND_OPTIONS.run, {}, {});
    let during = '';
    const ok = await withRun('run', runSettings(config), silentLogger, async () => 0, {
      handleSignals: false,
      afterSuccess: async (ctx) => {
        during = String((await ctx.store.connection.runAndReadAll(`SELECT status FROM runs WHERE run_id = '${ctx.runId}'`)).getRows()[0]![0]);
      },
    });
    expect(ok).toBe(0);
    expect(during).toBe('publishing');
    const failed = await withRun('run', runSettings(config), silentLogger, async () => 0, {
      handleSignals: false,
      afterSuccess: async () => {
        throw new Error('ENOSPC: no space left on device, copy');
      },
    });
    expect(failed).toBe(2);
    const rows = await query(path.join(dir, 'recon.duckdb'), 'SELECT status, error FROM runs ORDER BY started_at');
    expect(rows).toEqual([
      { status: 'succeeded', error: null },
      { status: 'failed', error: expect.stringMatching(/^publishing failed: ENOSPC/) },
    ]);
  });
});
