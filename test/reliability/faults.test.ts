// Item 1: the whole nightly run (sync → checks → workbook → publish) against the sandbox at a 20% fault
// rate ends with the same tables as a fault-free run, and every injected fault cost exactly one retry.
// test/sync/sync.test.ts covers the sync step alone, at one fault rate; this suite covers the nightly,
// every fault kind at once, faults on both sides of the client's time-out, and (RECON_SOAK) many rounds.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type FaultKind, type SandboxOptions } from '../../sandbox/index.js';
import { fingerprints, query, tempDir, type Fingerprints } from '../helpers/recon.js';
import { nightlyOnce } from '../helpers/nightly.js';
import { recordFigures, totalRows } from '../helpers/whole-store.js';

const SOAK = Boolean(process.env.RECON_SOAK);
const ROUNDS = SOAK ? 8 : 1;
const KINDS: FaultKind[] = ['500', '502', '503', 'html', 'slow', 'reset', 'truncated'];
const dataset = (seed: number): SandboxOptions => ({
  seed, disbursements: SOAK ? 150 : 40, payoutsPerDisbursement: 10, anomalies: { rate: 0.15 }, rateLimit: { limit: 1_000_000 },
});

const cleanups: Array<() => void> = [];
afterAll(() => cleanups.forEach((c) => c()));
const totals = { faults: 0, runs: 0, rowsCompared: 0, retries: 0 };

async function night(options: SandboxOptions, args: string[] = []) {
  const sb = await startSandbox(options);
  const t = tempDir('recon-faults-');
  cleanups.push(t.cleanup);
  try {
    const { outcome, config } = await nightlyOnce(sb, t.dir, args);
    totals.runs += 1;
    const [run] = await query(config.db, `SELECT status, retries, requests FROM runs WHERE run_id = '${outcome.runId}'`);
    const findings = await query(config.db, 'SELECT finding_key FROM findings ORDER BY finding_key');
    return {
      outcome, run: run!, prints: await fingerprints(config.db), findings: findings.map((f) => String(f.finding_key)),
      faults: sb.stats().faults, served: sb.stats().requests.total,
    };
  } finally {
    await sb.close();
  }
}

describe('nightly run against a flaky service', () => {
  // Faults the server times out itself (500 after serverTimeoutMs), then faults slower than the client's
  // own --timeout-ms, so the client aborts the request: both must be retried. The client's time-out is far
  // above what a request takes on a busy machine (a 250 ms one also caught unfaulted requests when the two
  // cores ran other suites), and the slow faults far above the time-out.
  const variants = [
    { name: 'server-side time-outs', sandbox: { serverTimeoutMs: 100 }, args: [] as string[] },
    { name: 'client-side time-outs', sandbox: { serverTimeoutMs: 4000 }, args: ['--timeout-ms', '1000'] },
  ];
  for (const v of variants) {
    it(`completes at a 20% fault rate (${v.name}) with the fingerprints and findings of a fault-free run, one retry per fault`, async () => {
      for (let round = 0; round < ROUNDS; round += 1) {
        const seed = 101 + round;
        const clean = await night(dataset(seed), v.args);
        const faulty = await night({ ...dataset(seed), ...v.sandbox, faults: { rate: 0.2, kinds: KINDS } }, v.args);
        const injected = Object.values(faulty.faults).reduce((n, c) => n + c, 0);

        expect(faulty.outcome.code).toBe(clean.outcome.code);
        expect(faulty.run.status).toBe('succeeded');
        expect(faulty.outcome.published).not.toBeNull();
        expect(injected).toBeGreaterThan(0.1 * faulty.served);
        for (const k of KINDS) expect(faulty.faults[k], `no ${k} fault was injected`).toBeGreaterThan(0);
        // Every fault costs the request exactly one more attempt (downloads are never faulted).
        expect(Number(faulty.run.retries)).toBe(injected);
        expect(faulty.prints).toEqual(clean.prints);
        expect(faulty.findings).toEqual(clean.findings);
        expect(clean.findings.length).toBeGreaterThan(0);

        totals.faults += injected;
        totals.retries += Number(faulty.run.retries);
        totals.rowsCompared += totalRows(clean.prints as Fingerprints);
      }
      recordFigures('faults', { ...totals, lost: 0 });
    }, SOAK ? 900_000 : 60_000);
  }
});
