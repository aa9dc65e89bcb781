// The rotation's promise — a disbursement of the lookback window is read in depth again on the first run 7
// days or more after its last deep read — for every store, whatever wrote it and however the runs fall. A
// store written before deep_reads existed (migration 046 leaves it empty) and then run weekly, on a weekday
// that is none of its disbursements' rotation slot, used to re-read nothing: restated payouts and files
// stayed unseen for weeks while every night said all reconciled. Runs here fall weekly on the wrong
// weekday and with gaps, on an injected clock.
import { describe, expect, it } from 'vitest';
import { query } from '../helpers/recon.js';
import { buildDisbursement, settlementCsv, type FakeDisbursement } from '../helpers/fake-service.js';
import { fakeServicesPerTest, syncFake } from '../helpers/whole-store.js';
import { owedAfterWindow, ROTATION_NIGHTS, rotationDue, slotDue } from '../../src/sync/rotation.js';

const { fake, store } = fakeServicesPerTest('recon-rotation-');
const DAY = 86_400_000;
const START = Date.parse('2026-09-01T02:30:00Z');
const WINDOW = ['--lookback-days', '100000'];

/** Ids whose rotation slot is never the weekday of START (so weekly runs from START never hit it). */
function offSlotIds(n: number): string[] {
  const ids: string[] = [];
  for (let k = 0; ids.length < n; k += 1) if (!slotDue(`rot_${k}`, START)) ids.push(`rot_${k}`);
  return ids;
}

async function deepReadAges(db: string, nowMs: number): Promise<Record<string, number>> {
  const rows = await query(db, 'SELECT disbursement_id, epoch_ms(read_at) AS at FROM deep_reads');
  return Object.fromEntries(rows.map((r) => [String(r.disbursement_id), (nowMs - Number(r.at)) / DAY]));
}

async function payoutAmounts(db: string, id: string): Promise<number[]> {
  return (await query(db, `SELECT amount FROM payouts WHERE disbursement_id = '${id}' ORDER BY amount`)).map((r) => Number(r.amount));
}

describe('the rotation bound holds for every store', () => {
  it('after an upgrade (deep_reads empty) and weekly runs on the wrong weekday, restated payouts, a removed payout and a changed file are read the next run', async () => {
    const [a, b, c] = offSlotIds(3).map((id) => buildDisbursement({ id, payouts: 3, amount: (i) => [2000, 2500, 1000][i]!, file: true })) as [FakeDisbursement, FakeDisbursement, FakeDisbursement];
    const f = await fake([a, b, c]);
    const { db } = store();
    expect((await syncFake(f, db, WINDOW, { now: () => START })).result!.reasons.new).toBe(3);
    // as a store written before deep_reads existed: nothing recorded of what was read
    await query(db, 'DELETE FROM deep_reads');
    // restated, the list records unchanged: a payout 20.00 → 25.00 and another 25.00 → 20.00; a payout
    // removed and another in its place; a file line changed
    [a.payouts![0]!.amount, a.payouts![1]!.amount] = [2500, 2000];
    b.payouts![2] = { ...b.payouts![2]!, reference: `${b.record.disbursement_id}_po_new`, payment_id: `${b.record.disbursement_id}_pay_new` };
    c.files = [{ name: `settlement_${String(c.record.disbursement_id)}.csv`, body: settlementCsv(c.payouts!.map((p, i) => (i === 0 ? { ...p, amount: 2001 } : p))) }];
    const week = await syncFake(f, db, WINDOW, { now: () => START + 7 * DAY });
    expect(week.code).toBe(0);
    expect(week.result!.reasons).toEqual({ new: 0, changed: 0, rotation: 3, again: 0 });
    expect(week.result!.restated).toBe(3);
    expect(await query(db, `SELECT DISTINCT disbursement_id FROM disbursement_history ORDER BY 1`)).toEqual([a, b, c].map((d) => ({ disbursement_id: String(d.record.disbursement_id) })).sort((x, y) => (x.disbursement_id < y.disbursement_id ? -1 : 1)));
    expect(await query(db, `SELECT reference FROM payouts WHERE disbursement_id = '${String(b.record.disbursement_id)}' ORDER BY reference`))
      .toContainEqual({ reference: `${String(b.record.disbursement_id)}_po_new` });
  });

  it('runs weekly on the wrong weekday and with gaps: every run reads what is 7 days old or more, and a later restatement is caught on the first such run', async () => {
    const ds = offSlotIds(4).map((id) => buildDisbursement({ id, payouts: 2, amount: (i) => [2000, 2500][i]! }));
    const f = await fake(ds);
    const { db } = store();
    await syncFake(f, db, WINDOW, { now: () => START });
    await query(db, 'DELETE FROM deep_reads');
    // weekly on the wrong weekday, then gaps of 3, 11, 2, 9 and 7 days
    const days = [7, 14, 17, 28, 30, 39, 46];
    let restatedOn: number | null = null;
    for (const day of days) {
      const now = START + day * DAY;
      if (day === 17) [ds[1]!.payouts![0]!.amount, ds[1]!.payouts![1]!.amount] = [2500, 2000]; // after day 14's deep read
      const run = await syncFake(f, db, WINDOW, { now: () => now });
      expect(run.code, `day ${day}`).toBe(0);
      if (run.result!.restated > 0 && restatedOn === null) restatedOn = day;
      // after every run, nothing of the window has gone 7 days or more without a deep read
      const ages = await deepReadAges(db, now);
      expect(Object.keys(ages).sort(), `day ${day}`).toEqual(ds.map((d) => String(d.record.disbursement_id)).sort());
      for (const [id, age] of Object.entries(ages)) expect(age, `day ${day}: ${id}`).toBeLessThan(ROTATION_NIGHTS);
    }
    // restated on day 17 (3 days after its day-14 read): the first run 7 days or more after that read is day 28
    expect(restatedOn).toBe(28);
    expect(await payoutAmounts(db, String(ds[1]!.record.disbursement_id))).toEqual([2000, 2500]);
  });

  it('a last deep read that is unknown, 7 days old, or after the run\'s clock is due whatever the slot', () => {
    const [id] = offSlotIds(1) as [string];
    expect(rotationDue(id, START, undefined)).toBe(true);
    expect(rotationDue(id, START, START - 7 * DAY)).toBe(true);
    expect(rotationDue(id, START, START + 3 * DAY)).toBe(true);
    expect(rotationDue(id, START, START - 2 * DAY)).toBe(false);
  });

  it('past the window, only a first read made inside it is owed another, once it is 7 days old', () => {
    const delivered = START - 10 * 3_600_000; // first read at START, the next night's run
    const firstRead = START;
    expect(owedAfterWindow(START + 6 * DAY, delivered, 7, firstRead)).toBe(false); // not yet a period old
    expect(owedAfterWindow(START + 7 * DAY, delivered, 7, firstRead)).toBe(true);
    expect(owedAfterWindow(START + 40 * DAY, delivered, 7, firstRead)).toBe(true); // runs with a gap
    // a backfill reads what was delivered before its window: nothing owed, or every night would reread history
    expect(owedAfterWindow(START + 7 * DAY, START - 30 * DAY, 7, firstRead)).toBe(false);
    // --lookback-days 0 re-reads nothing
    expect(owedAfterWindow(START + 7 * DAY, delivered, 0, firstRead)).toBe(false);
  });
});
