// The exception lifecycle across runs: new → open → acknowledged → (numbers change) new → resolved →
// back as new, with ages counted in whole days from an injected clock.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SQL_DIR } from '../../../src/paths.js';
import { ackFinding } from '../../../src/checks/ack.js';
import { AckError } from '../../../src/checks/errors.js';
import { latestFindings, type LatestFinding } from '../../../src/store/read/findings.js';
import { runChecks } from '../../../src/checks/runner.js';
import { markShown } from '../../../src/checks/lifecycle.js';
import { clean, loadClean, openTempStore, rows, withSpec, type TempStore } from '../../helpers/check-fixtures.js';

let t: TempStore;
beforeEach(async () => {
  t = await openTempStore();
});
afterEach(async () => {
  await t.close();
});

const DAY = 86_400_000;
const T0 = new Date('2026-07-01T03:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);

async function all(runId: string, opts: Parameters<typeof latestFindings>[2] = {}): Promise<LatestFinding[]> {
  const out: LatestFinding[] = [];
  for await (const page of latestFindings(t.connection, runId, opts)) out.push(...page);
  return out;
}

async function setAmount(amount: number): Promise<void> {
  await t.connection.run(`UPDATE disbursements SET amount = $1 WHERE disbursement_id = 'D-EU-1'`, [amount]);
}

/** A nightly run: its checks, then the workbook that shows their findings. */
async function run(runId: string, day: number, workbook = true) {
  const result = await runChecks(t.connection, { runId, now: at(day), only: ['total_identity'] });
  if (workbook) await markShown(t.connection, runId);
  return result;
}

describe('the exception lifecycle', () => {
  it('keeps a finding new until a workbook has shown it (a run that failed before its workbook showed nobody)', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-EU-1'), amount: 246913 }));
    expect((await run('r1', 0, false)).byStatus).toMatchObject({ new: 1, open: 0 }); // its workbook was never written
    expect((await run('r2', 1)).byStatus).toMatchObject({ new: 1, open: 0 }); // so the next one still says new
    expect((await run('r3', 2)).byStatus).toMatchObject({ new: 0, open: 1 }); // shown once: open from now on
    expect(await rows(t.connection, `SELECT first_run_id, shown_run_id FROM findings`)).toEqual([{ first_run_id: 'r1', shown_run_id: 'r2' }]);
    // resolved, then back: new again until shown again
    await setAmount(246912);
    await run('r4', 3);
    await setAmount(246913);
    expect((await run('r5', 4, false)).byStatus).toMatchObject({ new: 1 });
    expect((await run('r6', 5)).byStatus).toMatchObject({ new: 1 });
    expect((await run('r7', 6)).byStatus).toMatchObject({ open: 1 });
  });

  it('moves a finding through new, open, acknowledged, new again, resolved and back', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-EU-1'), amount: 246913 }));

    const r1 = await run('r1', 0);
    expect(r1.byStatus).toEqual({ new: 1, open: 0, acknowledged: 0, resolved: 0 });
    expect(r1.actionable).toBe(1);
    const [first] = await all('r1');
    expect(first).toMatchObject({ status: 'new', checkId: 'total_identity', disbursementId: 'D-EU-1', ageDays: 0 });
    const key = first!.key;

    const r2 = await run('r2', 1);
    expect(r2.byStatus).toMatchObject({ new: 0, open: 1 });
    expect((await all('r2'))[0]).toMatchObject({ key, status: 'open', ageDays: 1 });

    const ack = await ackFinding(t.connection, { key, note: 'bank fee, agreed with treasury', by: 'ana', now: at(1.5) });
    expect(ack).toMatchObject({ key, previousState: 'open', expected: 246912n, actual: 246913n, difference: 1n });

    const r3 = await run('r3', 2);
    expect(r3.byStatus).toMatchObject({ new: 0, open: 0, acknowledged: 1 });
    expect(r3.actionable).toBe(0);
    expect((await all('r3'))[0]).toMatchObject({ key, status: 'acknowledged', ackNote: 'bank fee, agreed with treasury', ackBy: 'ana' });

    const r4 = await run('r4', 3);
    expect(r4.byStatus.acknowledged).toBe(1);

    await setAmount(246914); // the numbers change: the acknowledgement no longer covers it
    const r5 = await run('r5', 4);
    expect(r5.byStatus).toMatchObject({ new: 1, acknowledged: 0 });
    const [reopened] = await all('r5');
    expect(reopened).toMatchObject({ key, status: 'new', difference: 2n, ageDays: 4 });
    expect((await rows(t.connection, 'SELECT state, status FROM open_exceptions'))).toEqual([{ state: 'open', status: 'new' }]);

    await setAmount(246912); // fixed at the source
    const r6 = await run('r6', 5);
    expect(r6.findings).toBe(0);
    expect(r6.byStatus).toEqual({ new: 0, open: 0, acknowledged: 0, resolved: 1 });
    expect(await rows(t.connection, 'SELECT state, resolved_run_id FROM findings')).toEqual([
      { state: 'resolved', resolved_run_id: 'r6' },
    ]);
    expect(await all('r6', { includeResolved: true })).toMatchObject([{ key, status: 'resolved' }]);

    await setAmount(246913); // back again: new, and its age starts over
    const r7 = await run('r7', 9);
    expect(r7.byStatus.new).toBe(1);
    expect((await all('r7'))[0]).toMatchObject({ key, status: 'new', ageDays: 0 });
    expect((await all('r7', { now: at(11.9) }))[0]?.ageDays).toBe(2);
  });

  it('counts age in whole days from first_seen to the injected now', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-EU-1'), amount: 1 }));
    await run('r1', 0);
    expect((await all('r1', { now: new Date(T0.getTime() + 2 * DAY + 23 * 3_600_000) }))[0]?.ageDays).toBe(2);
    expect((await all('r1', { now: new Date(T0.getTime() + 3 * DAY) }))[0]?.ageDays).toBe(3);
  });

  it('writes one exceptions row per finding per run and keeps the key stable across runs', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-EU-1'), amount: 1 }));
    await run('r1', 0);
    await run('r2', 1);
    const history = await rows(t.connection, 'SELECT run_id, finding_key, status FROM exceptions ORDER BY run_id');
    expect(history.map((h) => [h.run_id, h.status])).toEqual([['r1', 'new'], ['r2', 'open']]);
    expect(history[0]?.finding_key).toBe(history[1]?.finding_key);
  });
});

describe('ackFinding', () => {
  it('refuses an unknown key and says where keys are found', async () => {
    await expect(ackFinding(t.connection, { key: 'nope', note: 'x', by: 'ana' })).rejects.toThrow(
      'no finding with key nope; see the Key column of the workbook or SELECT finding_key FROM open_exceptions',
    );
  });

  it('requires a note and refuses a resolved finding', async () => {
    await loadClean(t.connection, withSpec({ ...clean('D-EU-1'), amount: 1 }));
    await run('r1', 0);
    const [{ finding_key: key }] = (await rows(t.connection, 'SELECT finding_key FROM findings')) as [{ finding_key: string }];
    await expect(ackFinding(t.connection, { key, note: '  ', by: 'ana' })).rejects.toBeInstanceOf(AckError);
    await setAmount(246912);
    await run('r2', 1);
    await expect(ackFinding(t.connection, { key, note: 'ok', by: 'ana' })).rejects.toThrow(/was resolved in run r2/);
  });
});

describe('the acknowledgement history', () => {
  async function oneFinding(): Promise<string> {
    await loadClean(t.connection, withSpec({ ...clean('D-EU-1'), amount: 246913 }));
    await run('r1', 0);
    return String((await rows(t.connection, 'SELECT finding_key FROM findings'))[0]!.finding_key);
  }
  const history = (key: string) => rows(t.connection,
    `SELECT seq, action, ack_by, note, difference, current FROM acknowledgements WHERE finding_key = '${key}' ORDER BY seq`);

  it('appends a second acknowledgement instead of overwriting the first; the finding shows the latest', async () => {
    const key = await oneFinding();
    await ackFinding(t.connection, { key, note: 'bank fee, agreed with treasury', by: 'ana', now: at(0.5) });
    const second = await ackFinding(t.connection, { key, note: 'provider confirmed in ticket FIN-14', by: 'ben', now: at(0.6) });
    expect(second.previousState).toBe('acknowledged');
    expect(second.history.map((h) => [h.seq, h.action, h.by, h.note])).toEqual([
      [1, 'ack', 'ana', 'bank fee, agreed with treasury'], [2, 'ack', 'ben', 'provider confirmed in ticket FIN-14']]);
    expect(await history(key)).toEqual([
      { seq: 1, action: 'ack', ack_by: 'ana', note: 'bank fee, agreed with treasury', difference: 1n, current: false },
      { seq: 2, action: 'ack', ack_by: 'ben', note: 'provider confirmed in ticket FIN-14', difference: 1n, current: true },
    ]);
    const r2 = await run('r2', 1);
    expect(r2.byStatus.acknowledged).toBe(1);
    expect((await all('r2'))[0]).toMatchObject({ ackBy: 'ben', ackNote: 'provider confirmed in ticket FIN-14', ackEntries: 2 });
  });

  it('a withdrawal opens the finding again and is kept in the history; nothing is left to withdraw after it', async () => {
    const key = await oneFinding();
    await ackFinding(t.connection, { key, note: 'bank fee', by: 'ana', now: at(0.5) });
    const w = await ackFinding(t.connection, { key, note: 'the fee was never agreed', by: 'ben', action: 'withdraw', now: at(0.7) });
    expect(w).toMatchObject({ action: 'withdraw', previousState: 'acknowledged' });
    expect(await rows(t.connection, `SELECT state, ack_by FROM findings`)).toEqual([{ state: 'open', ack_by: null }]);
    expect((await history(key)).map((h) => [h.action, h.ack_by, h.current])).toEqual([['ack', 'ana', false], ['withdraw', 'ben', false]]);
    const r2 = await run('r2', 1);
    expect(r2.byStatus).toMatchObject({ open: 1, acknowledged: 0 });
    expect((await all('r2'))[0]).toMatchObject({ status: 'open', ackBy: null, ackEntries: 2 });
    await expect(ackFinding(t.connection, { key, note: 'again', by: 'ben', action: 'withdraw' })).rejects.toThrow(/not acknowledged now/);
    await expect(ackFinding(t.connection, { key, note: '', by: 'ben', action: 'withdraw' })).rejects.toBeInstanceOf(AckError);
    await expect(ackFinding(t.connection, { key, note: 'x', by: ' ' })).rejects.toThrow(/--by NAME or RECON_ACK_BY/);
  });

  it('keeps the acknowledgements of a store made before the history existed as their first entries', async () => {
    const key = await oneFinding();
    // as migration 003 left them: the acknowledgement only in findings.ack_*
    await t.connection.run(`UPDATE findings SET state = 'acknowledged', ack_by = 'old', ack_at = TIMESTAMPTZ '2026-06-30 10:00:00+00',
      ack_note = 'from before', ack_expected = expected, ack_actual = actual, ack_difference = difference`);
    await t.connection.run('DELETE FROM finding_acks');
    await t.connection.run(readFileSync(path.join(SQL_DIR, 'schema', '055_ack_history.sql'), 'utf8').replace(/CREATE TABLE finding_acks[\s\S]*?\);\n/, ''));
    expect(await history(key)).toEqual([{ seq: 1, action: 'ack', ack_by: 'old', note: 'from before', difference: 1n, current: true }]);
    const next = await ackFinding(t.connection, { key, note: 'still fine', by: 'ana', now: at(0.5) });
    expect(next.history.map((h) => h.by)).toEqual(['old', 'ana']);
  });
});
