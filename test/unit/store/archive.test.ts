// The archive: a closed month older than --archive-after-months leaves the store for Parquet files beside it,
// and `recon sql` on the snapshot answers for it as before; the checks leave its lines alone and keep its
// findings; a disbursement the service changes brings its month back whole.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveMonths, monthsBefore, monthsToArchive, restoreMonth } from '../../../src/store/archive.js';
import { publishSnapshot } from '../../../src/store/publish.js';
import { runChecks } from '../../../src/checks/index.js';
import { StoreWriter, loadStoredState } from '../../../src/store/writer.js';
import { historyStore, monthsFrom, withStore, type HistoryStore } from '../../helpers/history-store.js';
import { tempDir } from '../../helpers/recon.js';
import { runCliHere } from '../../helpers/in-process.js';
import { testBundle } from '../../helpers/bundles.js';

/** Queries an accountant would ask about a month, each answered with its rows in a fixed order. */
const QUESTIONS = (month: string) => [
  `SELECT * EXCLUDE (month) FROM monthly_summary WHERE month = '${month}' ORDER BY recipient_id, currency`,
  `SELECT disbursement_id, reported, computed, difference, payouts_count, payouts_sum, status FROM reconciliation
     WHERE strftime(delivered_at, '%Y-%m') = '${month}' ORDER BY disbursement_id`,
  `SELECT count(*) AS n, sum(amount) AS total, sum(signed_amount) AS net FROM payment_lines
     WHERE strftime(delivered_at, '%Y-%m') = '${month}'`,
  `SELECT disbursement_id, line_no, payment_id, amount, raw FROM payouts
     WHERE disbursement_id LIKE 'dsb_${month}_%' ORDER BY ALL`,
  `SELECT count(*) AS n FROM file_lines WHERE disbursement_id LIKE 'dsb_${month}_%'`,
  `SELECT check_id, disbursement_id, state FROM findings WHERE disbursement_id LIKE 'dsb_${month}_%' ORDER BY ALL`,
  `SELECT typeof(payouts_sum) AS t, typeof(amount) AS a FROM reconciliation, payouts LIMIT 1`,
];

let t: { dir: string; cleanup: () => void };
let store: HistoryStore;
const months = monthsFrom('2026-01', 6);
const NOW = new Date('2026-06-20T12:00:00Z');

const sql = async (q: string) => {
  const r = await runCliHere(['sql', '--db', store.db, '--format', 'json', q]);
  expect(r.code, `${q}\n${r.stderr}`).toBe(0);
  return r.stdout;
};

beforeAll(async () => {
  t = tempDir('recon-archive-');
  store = await historyStore(t.dir, months);
  await withStore(store.db, (c) => publishSnapshot({ sourceConnection: c, publishedPath: store.published }));
}, 120_000);
afterAll(() => t.cleanup());

describe('the archive of closed months', () => {
  it('takes the closed months before the current one and the N before it, oldest first, two a night', async () => {
    expect(monthsBefore('2026-06', 3)).toBe('2026-03');
    expect(monthsBefore('2026-02', 3)).toBe('2025-11');
    await withStore(store.db, async (c) => {
      const after = (afterMonths: number, now = NOW) =>
        monthsToArchive(c, { archiveDir: store.archive, afterMonths }, now);
      expect(await after(3)).toEqual(['2026-01', '2026-02']);
      expect(await after(1)).toEqual(['2026-01', '2026-02']);
      expect(await after(0)).toEqual([]);
      // the last month is not closed: never archived however old
      expect(await after(1, new Date('2027-06-01T00:00:00Z'))).not.toContain('2026-06');
    });
  });

  it('answers the same recon sql queries for an archived month, and the store no longer holds its lines', async () => {
    const before = await Promise.all(QUESTIONS('2026-01').map(sql));
    const findingsBefore = await withStore(store.db, async (c) => (await c.runAndReadAll(
      `SELECT finding_key, state, last_run_id FROM findings ORDER BY finding_key`)).getRowsJS());
    const done = await withStore(store.db, async (c) => {
      const out = await archiveMonths(c, { archiveDir: store.archive, afterMonths: 3 }, 'archive-run', NOW);
      await publishSnapshot({ sourceConnection: c, publishedPath: store.published });
      return out;
    });
    expect(done.months).toEqual(['2026-01', '2026-02']);
    expect(done.disbursements).toBe(8);
    expect(readdirSync(path.join(store.archive, 'payouts'))).toEqual(['month=2026-01', 'month=2026-02']);
    await withStore(store.db, async (c) => {
      const n = (await c.runAndReadAll(`SELECT count(*) FROM payouts WHERE disbursement_id LIKE 'dsb_2026-01_%'`))
        .getRowsJS()[0]![0];
      expect(Number(n)).toBe(0);
    });
    const after = await Promise.all(QUESTIONS('2026-01').map(sql));
    expect(after).toEqual(before);
    const files = `SELECT object, month, archived FROM snapshot_files WHERE month = '2026-01' ORDER BY object`;
    const archived = JSON.parse(await sql(files)) as unknown[];
    expect(archived).toContainEqual({ object: 'payouts', month: '2026-01', archived: true });
    // the checks no longer see the archived lines: no finding appears about them, none is resolved for want of
    // them (each keeps the run that last found it); the others are found again, the payment of 2026-06 settled
    // again after its first settlement was archived among them
    await withStore(store.db, async (c) => {
      await c.run(`INSERT INTO runs (run_id, command, started_at, status)
        VALUES ('after-archive', 'run', now(), 'succeeded')`);
      await runChecks(c, { runId: 'after-archive', now: new Date('2026-06-21T12:00:00Z') });
      const rows = (await c.runAndReadAll(`SELECT finding_key, state, last_run_id, disbursement_id, check_id
        FROM findings ORDER BY finding_key`)).getRowsJS();
      expect(rows.map((r) => [r[0], r[1]])).toEqual(findingsBefore.map((r) => [r[0], r[1]]));
      const archivedMonth = (id: unknown) => /^dsb_2026-0[12]_/.test(String(id));
      expect(rows.filter((r) => archivedMonth(r[3])).length).toBeGreaterThan(0);
      for (const r of rows) expect(r[2], String(r[0])).toBe(archivedMonth(r[3]) ? 'seed-checks' : 'after-archive');
      expect(rows.some((r) => r[4] === 'duplicate_payout' && r[3] === 'dsb_2026-06_0')).toBe(true);
    });
  }, 120_000);

  it('brings a month back whole when the service changes one of its disbursements, the old version kept', async () => {
    await withStore(store.db, async (c) => {
      const stored = await loadStoredState(c);
      expect(stored.get('dsb_2026-02_1')?.archivedMonth).toBe('2026-02');
      const restoreArchived = async (cc: typeof c, m: string) => void (await restoreMonth(cc, store.archive, m));
      const writer = new StoreWriter(c, 'restating-run', stored, { restoreArchived });
      await writer.add(testBundle('dsb_2026-02_1', (b) => { b.record.delivered_at = '2026-02-15T10:00:00Z'; }));
      await writer.flush();
      const rows = (await c.runAndReadAll(`SELECT
        (SELECT count(*) FROM archived_months WHERE month = '2026-02'),
        (SELECT count(*) FROM payouts
          WHERE disbursement_id LIKE 'dsb_2026-02_%' AND disbursement_id <> 'dsb_2026-02_1'),
        (SELECT count(*) FROM payouts WHERE disbursement_id = 'dsb_2026-02_1'),
        (SELECT payouts_count FROM disbursement_history WHERE disbursement_id = 'dsb_2026-02_1'),
        (SELECT count(*) FROM archived_months WHERE month = '2026-01')`)).getRowsJS()[0]!.map(Number);
      expect(rows).toEqual([0, 15, 2, 5, 1]);
      // the archive files of 2026-02 stay while the published snapshot still reads them
      await publishSnapshot({ sourceConnection: c, publishedPath: store.published });
    });
    const count = async (where: string) =>
      JSON.parse(await sql(`SELECT count(*) AS n FROM payouts WHERE ${where}`)) as unknown;
    expect(await count(`disbursement_id = 'dsb_2026-02_1'`)).toEqual([{ n: 2 }]);
    expect(await count(`disbursement_id LIKE 'dsb_2026-01_%'`)).toEqual([{ n: 20 }]);
    expect(existsSync(path.join(store.archive, 'payouts', 'month=2026-01'))).toBe(true);
  }, 120_000);
});
