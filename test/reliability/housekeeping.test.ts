// what killed runs and lost disks leave behind is cleaned up or repaired by the next run.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { query, tempDir, syncOnce } from '../helpers/recon.js';
import { nightlyOnce } from '../helpers/nightly.js';
import { openStore } from '../../src/store/db.js';
import { startRun } from '../../src/store/runs.js';
import { withRun } from '../../pipelines/run.js';
import { runSettings } from '../../pipelines/settings.js';
import { parseCommandArgs } from '../../pipelines/config.js';
import { silentLogger } from '../../src/log.js';

let sb: Sandbox;
const cleanups: Array<() => void> = [];
beforeAll(async () => {
  sb = await startSandbox({ seed: 33, disbursements: 20, payoutsPerDisbursement: 3, rateLimit: { limit: 1_000_000 } });
});
afterAll(async () => {
  await sb.close();
  cleanups.forEach((c) => c());
});
function folder(): string {
  const t = tempDir('recon-house-');
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('housekeeping', () => {
  it('removes the temp workbooks of killed runs at the start of the next run', async () => {
    const dir = folder();
    const reports = path.join(dir, 'reports');
    mkdirSync(reports, { recursive: true });
    const stale = path.join(reports, '.recon-2026-11-23-x.xlsx.99999.abcdef12.tmp');
    writeFileSync(stale, 'half a workbook');
    const keep = path.join(reports, 'notes.tmp');
    writeFileSync(keep, 'not ours');
    expect((await nightlyOnce(sb, dir)).outcome.code).toBe(0);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(keep)).toBe(true);
  });

  it('downloads again the files a deleted files/ folder lost, without --full', async () => {
    const dir = folder();
    const db = path.join(dir, 'recon.duckdb');
    expect((await syncOnce(sb, db)).code).toBe(0);
    const { n } = ((await query(db, 'SELECT count(*)::INT AS n FROM disbursement_files WHERE sha256 IS NOT NULL')) as Array<{ n: number }>)[0]!;
    expect(n).toBeGreaterThan(0);
    rmSync(path.join(dir, 'files'), { recursive: true, force: true });
    sb.resetStats();
    const again = await syncOnce(sb, db);
    expect(again.code).toBe(0);
    expect(sb.stats().requests.byEndpoint.download).toBe(n);
    expect(existsSync(path.join(dir, 'files'))).toBe(true);
  });

  it('records a run whose store could not record its own failure (DuckDB invalidated it) as failed, with the cause', async () => {
    const dir = folder();
    const db = path.join(dir, 'recon.duckdb');
    const store = await openStore(db);
    await startRun(store.connection, { runId: 'r-disk-full', command: 'run', serviceUrl: null, options: {} });
    store.close();
    writeFileSync(`${db}.failed-run.json`, JSON.stringify({ runId: 'r-disk-full', error: 'IO Error: No space left on device' }));
    const { config } = parseCommandArgs(['--db', db], ['db'], {}, {});
    expect(await withRun('check', runSettings(config), silentLogger, async () => 0, { handleSignals: false })).toBe(0);
    expect(await query(db, `SELECT status, error FROM runs WHERE run_id = 'r-disk-full'`)).toEqual([{ status: 'failed', error: 'IO Error: No space left on device' }]);
    expect(existsSync(`${db}.failed-run.json`)).toBe(false);
  });
});
