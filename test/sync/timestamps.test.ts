// Every form of timestamp the interface allows loads as the UTC instant it names, an impossible or non-ISO
// one quarantines its disbursement with a plain reason, and the night completes (exit 0/1) — a real
// `recon run` (a child process: the host's time zone is read once per process) against the scripted fake
// service, once under TZ=UTC and once under TZ=America/New_York: both stores hold the same rows. The dates
// outside what recon holds need no process of their own and run the CLI in-process.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { query } from '../helpers/recon.js';
import { runCli } from '../helpers/child.js';
import { runCliHere } from '../helpers/in-process.js';
import { buildDisbursement } from '../helpers/fake-service.js';
import { fakeServicesPerTest } from '../helpers/whole-store.js';

const { fake, store } = fakeServicesPerTest('recon-timestamps-');

const FORMS: Record<string, string> = {
  ts_plain: '2026-10-05T06:00:00Z',
  ts_no_seconds: '2026-10-05T06:00Z',
  ts_lower_z: '2026-10-05T06:00:00z',
  ts_offset: '2026-10-05T08:00:00+02:00',
  ts_offset_basic: '2026-10-05T08:00:00+0200',
  ts_no_zone: '2026-10-31T23:30:00', // UTC: October, whatever the host's zone
  ts_fraction: '2026-10-05T06:00:00.123456789Z',
  ts_impossible: '2026-02-30T10:00:00Z',
  ts_us_date: '10/05/2026',
};

/** Each table's rows as sorted text, without what differs between two runs (run ids, wall-clock times). */
async function contents(db: string): Promise<Record<string, string[]>> {
  const tables: Record<string, string> = {
    disbursements: `SELECT * EXCLUDE (run_id, first_run_id, synced_at), epoch_us(delivered_at) AS us, month_of(delivered_at) AS month FROM disbursements`,
    payouts: 'SELECT * EXCLUDE (run_id) FROM payouts',
    refunds: 'SELECT * EXCLUDE (run_id) FROM refunds',
    adjustments: 'SELECT * EXCLUDE (run_id) FROM adjustments',
    disbursement_files: 'SELECT * EXCLUDE (run_id, downloaded_at) FROM disbursement_files',
    file_lines: 'SELECT * EXCLUDE (run_id) FROM file_lines',
    quarantine: 'SELECT * EXCLUDE (run_id, quarantined_at) FROM quarantine',
    findings: 'SELECT check_id, disbursement_id, state, severity FROM findings',
  };
  const out: Record<string, string[]> = {};
  for (const [t, sql] of Object.entries(tables)) out[t] = (await query(db, sql)).map((r) => JSON.stringify(r, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).sort();
  return out;
}

describe('service timestamps through a night', () => {
  it('every allowed form loads as UTC, the impossible and the US date quarantine their record, the night completes, under any host time zone', async () => {
    const f = await fake(Object.entries(FORMS).map(([id, deliveredAt]) => buildDisbursement({ id, deliveredAt, payouts: 2, file: true })));
    const stores: Array<Record<string, string[]>> = [];
    for (const tz of ['UTC', 'America/New_York']) {
      const { dir, db } = store();
      const night = await runCli(['run', '--api-url', f.url, '--api-key', f.apiKey, '--db', db, '--reports', path.join(dir, 'reports'),
        '--rate-per-minute', '60000', '--sample-budget', '0'], { TZ: tz });
      expect([0, 1], `TZ=${tz}: ${night.stderr}`).toContain(night.code);
      const byId = Object.fromEntries((await query(db, `SELECT disbursement_id, strftime(delivered_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S.%f') AS at,
        month_of(delivered_at) AS month FROM disbursements`)).map((r) => [String(r.disbursement_id), `${String(r.at)} ${String(r.month)}`]));
      expect(byId, `TZ=${tz}`).toEqual({
        ts_plain: '2026-10-05T06:00:00.000000 2026-10',
        ts_no_seconds: '2026-10-05T06:00:00.000000 2026-10',
        ts_lower_z: '2026-10-05T06:00:00.000000 2026-10',
        ts_offset: '2026-10-05T06:00:00.000000 2026-10',
        ts_offset_basic: '2026-10-05T06:00:00.000000 2026-10',
        ts_no_zone: '2026-10-31T23:30:00.000000 2026-10',
        ts_fraction: '2026-10-05T06:00:00.123456 2026-10',
      });
      const quarantined = await query(db, `SELECT disbursement_id, resource, reason FROM quarantine ORDER BY 1`);
      expect(quarantined, `TZ=${tz}`).toEqual([
        { disbursement_id: 'ts_impossible', resource: 'disbursement', reason: 'delivered_at: names a day that does not exist (2026-02-30) (got "2026-02-30T10:00:00Z")' },
        { disbursement_id: 'ts_us_date', resource: 'disbursement', reason: 'delivered_at: is not an ISO 8601 timestamp (expected e.g. 2026-10-05T06:00:00Z) (got "10/05/2026")' },
      ]);
      // the seven loaded disbursements have all their lines
      expect(await query(db, 'SELECT count(*)::INTEGER AS n FROM payouts')).toEqual([{ n: 14 }]);
      stores.push(await contents(db));
    }
    expect(stores[1]).toEqual(stores[0]);
  }, 120_000);
});

describe('a delivered_at outside the dates recon holds', () => {
  it('a "never" sentinel (9999-12-31) or a pre-1970 date quarantines its record with the reason; every night after still completes and publishes', async () => {
    const good = buildDisbursement({ id: 'ts_good', deliveredAt: '2026-10-05T06:00:00Z', payouts: 2 });
    const sentinel = buildDisbursement({ id: 'ts_sentinel', deliveredAt: '9999-12-31T23:59:59Z', payouts: 2 });
    const early = buildDisbursement({ id: 'ts_1969', deliveredAt: '1969-12-31T23:59:59Z', payouts: 2 });
    const f = await fake([good, sentinel, early]);
    const { dir, db } = store();
    const args = ['run', '--api-url', f.url, '--api-key', f.apiKey, '--db', db, '--reports', path.join(dir, 'reports'), '--rate-per-minute', '60000',
      '--sample-budget', '0'];
    for (const night of [1, 2]) {
      const run = await runCliHere(args);
      // the quarantined records are findings (invalid_record): exit 1, a workbook, a published snapshot
      expect(run.code, `night ${night}: ${run.stderr}`).toBe(1);
    }
    expect(await query(db, 'SELECT disbursement_id FROM disbursements')).toEqual([{ disbursement_id: 'ts_good' }]);
    const q = await query(db, `SELECT disbursement_id, reason FROM quarantine ORDER BY disbursement_id`);
    expect(q).toEqual([
      { disbursement_id: 'ts_1969', reason: 'delivered_at: is before 1970, outside the dates recon holds (1970 to a year after the run) (got "1969-12-31T23:59:59Z")' },
      { disbursement_id: 'ts_sentinel', reason: expect.stringMatching(/^delivered_at: is more than a year after this run's clock \(\d{4}-\d{2}-\d{2}\), outside the dates recon holds .*\(got "9999-12-31T23:59:59Z"\)$/) },
    ]);
    expect(await query(db, `SELECT DISTINCT check_id, disbursement_id FROM findings WHERE check_id = 'invalid_record' ORDER BY 2`)).toEqual([
      { check_id: 'invalid_record', disbursement_id: 'ts_1969' }, { check_id: 'invalid_record', disbursement_id: 'ts_sentinel' }]);
    expect(await query(db, `SELECT count(*)::INT AS n FROM runs WHERE command = 'run' AND status = 'succeeded'`)).toEqual([{ n: 2 }]);
  });
});
