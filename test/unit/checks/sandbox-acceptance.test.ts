// Issue 4 acceptance: against the sandbox with every anomaly kind planted, each planted anomaly is found
// by the check the sandbox's ground truth expects, and no clean disbursement is flagged.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantEveryKind, startSandbox, type Sandbox } from '../../../sandbox/index.js';
import { query, syncOnce, tempDir } from '../../helpers/recon.js';
import { openStore } from '../../../src/store/db.js';
import { runChecks } from '../../../src/checks/index.js';

let sb: Sandbox;
let file: string;
let cleanup: () => void;
let findings: Array<{ check_id: string; disbursement_id: string | null }>;

beforeAll(async () => {
  sb = await startSandbox({ seed: 5, disbursements: 120, payoutsPerDisbursement: 8, anomalies: { plant: plantEveryKind(12) }, rateLimit: { limit: 1_000_000 } });
  const t = tempDir();
  cleanup = t.cleanup;
  file = path.join(t.dir, 'recon.duckdb');
  expect((await syncOnce(sb, file, ['--sample-budget', '100000'])).code).toBe(0);
  sb.setGeneration(1); // restatements show on the next read
  expect((await syncOnce(sb, file)).code).toBe(0);
  const store = await openStore(file);
  try {
    await runChecks(store.connection, { runId: 'acceptance' });
  } finally {
    store.close();
  }
  findings = (await query(file, `SELECT check_id, disbursement_id FROM exceptions WHERE run_id = 'acceptance'`)) as typeof findings;
}, 120_000);
afterAll(async () => {
  await sb.close();
  cleanup();
});

describe('checks against the sandbox ground truth', () => {
  it('plants every anomaly kind once', () => {
    expect(new Set(sb.truth.anomalies().map((a) => a.kind)).size).toBe(16);
  });

  it('finds each planted anomaly with the expected check', () => {
    const missed: string[] = [];
    for (const a of sb.truth.anomalies()) {
      for (const check of a.checks) {
        if (!findings.some((f) => f.check_id === check && f.disbursement_id === a.disbursement_id)) missed.push(`${a.kind} → ${check} on ${a.disbursement_id}`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('flags no clean disbursement', () => {
    const anomalous = new Set(sb.truth.anomalies().map((a) => a.disbursement_id));
    const falsePositives = findings.filter((f) => f.disbursement_id !== null && !anomalous.has(f.disbursement_id));
    expect(falsePositives).toEqual([]);
  });
});
