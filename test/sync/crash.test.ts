import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/index.js';
import { fingerprints, query, syncOnce, tempDir, type Fingerprints } from '../helpers/recon.js';
import { logCount, startCli, waitFor } from '../helpers/child.js';
import { assertWholeDisbursements, sandboxLineCounts } from '../helpers/store.js';
import { testRandom } from '../helpers/seed.js';

// issue 6 asks for ≥ 20 kill points in the reliability soak; the fast suite kills at a few.
const KILLS = process.env.RECON_SOAK ? 20 : 3;
const DATASET = { seed: 21, disbursements: 80, payoutsPerDisbursement: 15, latencyMs: [10, 30] as [number, number], rateLimit: { limit: 1_000_000 } };

let sb: Sandbox;
let clean: Fingerprints;
const dirs: Array<() => void> = [];
beforeAll(async () => {
  sb = await startSandbox(DATASET);
  const t = tempDir();
  dirs.push(t.cleanup);
  await syncOnce(sb, path.join(t.dir, 'recon.duckdb'));
  clean = await fingerprints(path.join(t.dir, 'recon.duckdb'));
});
afterAll(async () => {
  await sb.close();
  dirs.forEach((d) => d());
});

describe('sync killed with SIGKILL', () => {
  it(`resumes after being killed at ${KILLS} points and ends identical to an uninterrupted run`, async () => {
    const random = testRandom('sync crash kill points');
    let t = tempDir();
    dirs.push(t.cleanup);
    let file = path.join(t.dir, 'recon.duckdb');
    let stored = 0;
    let landed = 0;
    for (let attempt = 0; landed < KILLS && attempt < KILLS * 4; attempt += 1) {
      const log = path.join(t.dir, 'sync.log');
      const before = logCount(log, 'batch committed');
      const { child, done } = startCli(['sync', '--api-url', sb.url, '--api-key', sb.apiKey, '--db', file, '--log-file', log,
        '--rate-per-minute', '60000', '--sample-budget', '0', '--concurrency', '2']);
      // after at least one commit of this child, at a seeded moment inside the next batch
      await waitFor(() => logCount(log, 'batch committed') > before, 20_000, 2);
      await new Promise((r) => setTimeout(r, Math.floor(random.next() * 900)));
      child.kill('SIGKILL');
      const ended = await done;
      if (ended.code === 0) {
        // finished before the kill landed: that kill did not happen, so start again from an empty store
        t = tempDir();
        dirs.push(t.cleanup);
        file = path.join(t.dir, 'recon.duckdb');
        continue;
      }
      if (ended.signal !== 'SIGKILL') throw new Error(`sync child ended by itself: ${ended.code} ${ended.stderr}`);
      landed += 1;
      stored = await assertWholeDisbursements(file, sandboxLineCounts(sb));
    }
    expect(landed).toBe(KILLS);
    expect(stored).toBeGreaterThan(0);
    const rerun = await syncOnce(sb, file);
    expect(rerun.code).toBe(0);
    await assertWholeDisbursements(file, sandboxLineCounts(sb));
    expect(await fingerprints(file)).toEqual(clean);
  }, process.env.RECON_SOAK ? 600_000 : 60_000); // the soak's 20 kills take ~3 min on 2 cores
});
