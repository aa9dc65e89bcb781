// A night's incremental check (runChecks mode incremental: src/checks/scope.ts) against the full check on the
// same store: two stores get the same random nights (new disbursements with repeats across them, files that
// disagree, quarantine; restatements; samples; a quarantined list record and a short list; closes; bank
// credits; a disbursement removed; acknowledgements and workbooks shown between nights), one checked
// incrementally, the other in full, and after every night the rows of the run and every finding must be the
// same. Seeded (RECON_TEST_SEED replays one); the seed is printed on failure.
import { afterEach, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ackFinding, markShown, runChecks } from '../../../src/checks/index.js';
import { setBankSettings } from '../../../src/store/bank.js';
import { openTempStore, type TempStore } from '../../helpers/check-fixtures.js';
import { testRandom } from '../../helpers/seed.js';
import { drawNight, emptyHistory, writeNight } from '../../helpers/random-nights.js';

const open: TempStore[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});

async function twoStores(): Promise<[DuckDBConnection, DuckDBConnection]> {
  const a = await openTempStore();
  const b = await openTempStore();
  open.push(a, b);
  return [a.connection, b.connection];
}

/** The rows check run `runId` wrote and every finding with its whole state, for comparing two stores. */
async function outcome(c: DuckDBConnection, runId: string): Promise<unknown[]> {
  const rows = await c.runAndReadAll('SELECT * FROM exceptions WHERE run_id = $1 ORDER BY finding_key', [runId]);
  const findings = await c.runAndReadAll('SELECT * FROM findings ORDER BY finding_key');
  return [rows.getRows(), findings.getRows()];
}

/** An open finding's key, the n-th by key (the same in both stores while they agree). */
async function openKey(c: DuckDBConnection, n: number, state: string): Promise<string | null> {
  const sql = 'SELECT finding_key FROM findings WHERE state = $1 ORDER BY finding_key';
  const keys = (await c.runAndReadAll(sql, [state])).getRows();
  return keys.length ? String(keys[n % keys.length]![0]) : null;
}

const NIGHTS = 6;
const SEEDS = Number(process.env.RECON_INCREMENTAL_SEEDS ?? 3);

describe('an incremental night', () => {
  for (let s = 0; s < SEEDS; s += 1) {
    it(`gives the findings a full check gives, night after night (random store ${s + 1})`, async () => {
      const { seed, next } = testRandom(`incremental checks ${s}`);
      const [inc, full] = await twoStores();
      const history = emptyHistory();
      let carried = 0;
      let rechecked = 0;
      for (let k = 1; k <= NIGHTS; k += 1) {
        const plan = drawNight(next, history, k);
        const at = new Date(plan.at);
        for (const c of [inc, full]) await writeNight(c, plan);
        const a = await runChecks(inc, { runId: plan.runId, now: at, mode: 'incremental' });
        const b = await runChecks(full, { runId: plan.runId, now: at, mode: 'full' });
        const where = `seed ${seed}, night ${k} (RECON_TEST_SEED=${seed})`;
        expect(a.mode, where).toBe(k === 1 ? 'full' : 'incremental');
        expect(await outcome(inc, plan.runId), where).toEqual(await outcome(full, plan.runId));
        carried += a.scope?.carried ?? 0;
        rechecked += a.scope?.disbursements ?? 0;
        // the morning after: the workbook shown, now and then a finding acknowledged or its acknowledgement withdrawn
        const shown = next() < 0.7;
        const ack = next() < 0.5 ? await openKey(inc, Math.floor(next() * 100), 'open') : null;
        const withdraw = next() < 0.2 ? await openKey(inc, Math.floor(next() * 100), 'acknowledged') : null;
        for (const c of [inc, full]) {
          if (shown) await markShown(c, plan.runId);
          if (ack) await ackFinding(c, { key: ack, note: 'agreed with the provider', by: 'ana', now: at });
          const action = 'withdraw';
          if (withdraw) await ackFinding(c, { key: withdraw, note: 'not agreed after all', by: 'ben', now: at, action });
        }
      }
      // the nights carried findings forward and re-checked others: the comparison was not of two full runs
      expect(carried, `seed ${seed}`).toBeGreaterThan(0);
      expect(rechecked, `seed ${seed}`).toBeGreaterThan(0);
    }, 120_000);
  }
});

describe('a night is full', () => {
  it('when asked, when no check run came before, and when a setting the checks read changed since', async () => {
    const { next } = testRandom('incremental checks full');
    const [c] = await twoStores();
    const history = emptyHistory();
    const night = async (k: number, mode: 'full' | 'incremental' = 'incremental') => {
      const plan = drawNight(next, history, k);
      await writeNight(c, plan);
      return runChecks(c, { runId: plan.runId, now: new Date(plan.at), mode });
    };
    expect(await night(1)).toMatchObject({ mode: 'full', fullReason: 'no complete check run before this one' });
    expect(await night(2)).toMatchObject({ mode: 'incremental', fullReason: null });
    expect(await night(3, 'full')).toMatchObject({ mode: 'full', fullReason: 'asked for (--full)' });
    await setBankSettings(c, 5, [{ currency: '*', maxFeeMajor: '25', maxPercent: '1' }]);
    expect((await night(4)).fullReason).toMatch(/settings changed since the last check run/);
    expect(await night(5)).toMatchObject({ mode: 'incremental' });
  }, 60_000);

  it('an --only run is never a basis: the next night re-checks what came since the last complete run', async () => {
    const { next } = testRandom('incremental checks only');
    const [inc, full] = await twoStores();
    const history = emptyHistory();
    for (let k = 1; k <= 3; k += 1) {
      const plan = drawNight(next, history, k);
      for (const c of [inc, full]) await writeNight(c, plan);
      const at = new Date(plan.at);
      // night 2 runs only total_identity, on both: the night after must still see night 2's writes
      const only = k === 2 ? ['total_identity'] : undefined;
      const a = await runChecks(inc, { runId: plan.runId, now: at, mode: 'incremental', only });
      await runChecks(full, { runId: plan.runId, now: at, mode: 'full', only });
      expect(a.mode).toBe(k === 1 ? 'full' : k === 2 ? 'only' : 'incremental');
      expect(await outcome(inc, plan.runId)).toEqual(await outcome(full, plan.runId));
    }
  }, 60_000);
});
