// Against the realistic profile (everything the interface allows: list and field
// order varying per read, a per_page maximum enforced with 422, duration expiry, redirects, slow files,
// payment details refused for some payments), two nights with no data change tell the same story:
// night 2 has 0 restated and 0 new findings; then, after the service restates, every planted anomaly is
// found and no clean disbursement is flagged.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantEveryKind, startSandbox, type Sandbox } from '../../sandbox/index.js';
import { query, tempDir } from '../helpers/recon.js';
import { nightlyOnce } from '../helpers/nightly.js';
import type { NightlyOutcome } from '../../pipelines/nightly.js';

let sb: Sandbox;
let dir: string;
let cleanup: () => void;
const nights: NightlyOutcome[] = [];
const findingsOf = async (runId: string) =>
  (await query(path.join(dir, 'recon.duckdb'), `SELECT check_id, severity, disbursement_id, status, detail FROM exceptions WHERE run_id = '${runId}'`)) as
    Array<{ check_id: string; severity: string; disbursement_id: string | null; status: string; detail: string }>;

beforeAll(async () => {
  sb = await startSandbox({ seed: 11, disbursements: 120, payoutsPerDisbursement: 8, profile: 'realistic', anomalies: { plant: plantEveryKind(12) },
    rateLimit: { limit: 1_000_000 }, realism: { slowFileSliceDelayMs: 5 } });
  const t = tempDir();
  dir = t.dir;
  cleanup = t.cleanup;
  const args = ['--sample-budget', '100000', '--lookback-days', '100000']; // every payment looked up, every disbursement re-read
  nights.push((await nightlyOnce(sb, dir, args)).outcome);
  nights.push((await nightlyOnce(sb, dir, [...args, '--full'])).outcome); // every disbursement read again, in another order
  sb.setGeneration(1);
  nights.push((await nightlyOnce(sb, dir, args)).outcome);
}, 180_000);
afterAll(async () => {
  await sb.close();
  cleanup();
});

describe('two nights against the realistic profile', () => {
  it('exits 1 each night (planted anomalies) and re-reads every disbursement on night 2', () => {
    expect(nights.map((n) => n.code)).toEqual([1, 1, 1]);
    expect(nights[1]!.sync!.fetched).toBe(120);
  });

  it('finds nothing restated on night 2 though every list and field came in another order', async () => {
    expect(nights[1]!.sync!.restated).toBe(0);
    const night2 = await findingsOf(nights[1]!.runId!);
    expect(night2.filter((f) => f.status === 'new')).toEqual([]);
  });

  it('negotiated the page size the service accepts and remembered it', async () => {
    const [row] = await query(path.join(dir, 'recon.duckdb'), `SELECT value FROM service_settings WHERE key = 'per_page'`);
    expect(row?.value).toBe('50');
  });

  it('finds every planted anomaly with its check after the service restates', async () => {
    const found = await findingsOf(nights[2]!.runId!);
    const missed = sb.truth.anomalies().flatMap((a) => a.checks.filter((check) => !found.some((f) => f.check_id === check && f.disbursement_id === a.disbursement_id))
      .map((check) => `${a.kind} → ${check} on ${a.disbursement_id}`));
    expect(missed).toEqual([]);
  });

  it('flags no clean disbursement', async () => {
    const anomalous = new Set(sb.truth.anomalies().map((a) => a.disbursement_id));
    const found = await findingsOf(nights[2]!.runId!);
    expect(found.filter((f) => f.disbursement_id !== null && !anomalous.has(f.disbursement_id))).toEqual([]);
  });

  it('counts the payment look-ups the service refused as unverified, not as findings', async () => {
    const [row] = await query(path.join(dir, 'recon.duckdb'),
      `SELECT count(*) FILTER (WHERE http_status = 403)::INT AS refused, count(*)::INT AS sampled FROM payment_samples`);
    expect(row!.refused).toBeGreaterThan(0); // some payment details are refused in this profile
    expect(row!.sampled).toBeGreaterThan(row!.refused as number);
  });
});
