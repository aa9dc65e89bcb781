// An export killed with SIGKILL in the middle of a month (a real `recon export` process, its COPY running):
// every month PostgreSQL holds is whole, the killed export is recorded as interrupted, and the next one
// completes.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { openStore } from '../../src/store/db.js';
import { publishSnapshot } from '../../src/store/publish.js';
import { parseCommandArgs, COMMAND_OPTIONS } from '../../pipelines/config.js';
import { silentLogger } from '../../src/log.js';
import { runPostgresExport } from '../../pipelines/warehouse.js';
import { warehouseSettings } from '../../pipelines/settings.js';
import { startCli } from '../helpers/child.js';
import { postgresBinDir, postgresForSuite, provisionExport } from '../helpers/postgres.js';
import { query } from '../helpers/recon.js';
import { dirPerTest } from '../helpers/temp-dir.js';

const PASSWORD = 'kill-Pw-93be';

/** Per month: payouts and their sum, in the store and in PostgreSQL. */
const STORE_MONTHS = `SELECT strftime(d.delivered_at AT TIME ZONE 'UTC', '%Y-%m') AS month, count(*)::VARCHAR AS n, sum(p.amount)::VARCHAR AS s
  FROM payouts p JOIN disbursements d USING (disbursement_id) GROUP BY ALL ORDER BY 1`;
const PG_MONTHS = `SELECT month, count(*)::text AS n, sum(amount)::text AS s FROM recon.payouts GROUP BY month ORDER BY 1`;

describe.skipIf(postgresBinDir() === null)('an interrupted export', () => {
  const server = postgresForSuite((s) =>
    provisionExport(s, { database: 'finance', schema: 'recon', role: 'recon_kill', password: PASSWORD }));
  const t = dirPerTest();

  it('killed with SIGKILL mid-COPY leaves every month whole, and the next export completes', async () => {
    const db = path.join(t.dir, 'recon.duckdb');
    const store = await openStore(db);
    try {
      const c = store.connection;
      // six months of 400 disbursements × 100 payouts: long enough that the kill lands inside a month's COPY
      await c.run(`INSERT INTO disbursements (disbursement_id, recipient_id, status, delivered_at, number_of_payments, number_of_refunds, number_of_adjustments,
          amount, currency, sync_status, content_hash, first_run_id, run_id, synced_at, raw)
        SELECT 'd' || i, 'r', 'delivered', TIMESTAMPTZ '2026-01-10 00:00:00+00' + to_days(CAST((i % 6) * 31 AS INTEGER)), 100, 0, 0, 0,
          ['EUR', 'JPY', 'KWD'][i % 3 + 1], 'complete', md5(CAST(i AS VARCHAR)), 'seed', 'seed', now(), '{"n":1}'
        FROM range(2400) t(i)`);
      await c.run(`INSERT INTO payouts (disbursement_id, line_no, recipient_id, reference, status, payment_id, currency, amount, run_id, raw, occurrence)
        SELECT 'd' || (i // 100), CAST(i % 100 + 1 AS INTEGER), 'r', 'po' || i, 'paid', 'pay' || i, 'EUR', 1000 + i % 977, 'seed',
          '{"reference":"po' || i || '","text":"a line of some length to copy"}', 1
        FROM range(240000) t(i)`);
      await c.run(`INSERT INTO runs (run_id, command, started_at, finished_at, status) VALUES ('seed', 'run', now(), now(), 'succeeded')`);
      await publishSnapshot({ sourceConnection: c, publishedPath: path.join(t.dir, 'published', 'recon.duckdb') });
    } finally {
      store.close();
    }
    const url = server.url('recon_kill', PASSWORD, 'finance');
    const child = startCli(['export', '--db', db, '--postgres', url]);
    let copying = false;
    for (let i = 0; i < 3000 && child.child.exitCode === null; i += 1) {
      const months = await server.query<{ n: number }>('SELECT count(*)::int AS n FROM recon.export_months', [], 'finance').catch(() => [{ n: 0 }]);
      const active = await server.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'recon' AND state = 'active' AND query LIKE 'COPY%'`);
      if (months[0]!.n >= 1 && active.length > 0) {
        copying = true;
        child.child.kill('SIGKILL');
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const ended = await child.done;
    expect(copying, `the export ended before it could be killed: ${ended.stderr}`).toBe(true);
    expect(ended.signal).toBe('SIGKILL');

    const storeMonths = await query(db, STORE_MONTHS);
    const whole = new Map(storeMonths.map((m) => [String(m.month), `${String(m.n)}/${String(m.s)}`]));
    const held = (await server.query<{ month: string }>('SELECT month FROM recon.export_months', [], 'finance')).map((r) => r.month);
    // the server rolls the killed month back once it sees the connection gone
    for (let i = 0; i < 100 && (await server.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'recon'`)).length > 0; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const inPg = await server.query<{ month: string; n: string; s: string }>(PG_MONTHS, [], 'finance');
    expect(inPg.length).toBeGreaterThan(0);
    expect(inPg.length).toBeLessThan(storeMonths.length);
    for (const m of inPg) {
      expect(held, `month ${m.month} has rows but no record`).toContain(m.month);
      expect(`${m.n}/${m.s}`, `month ${m.month}`).toBe(whole.get(m.month));
    }

    const { config } = parseCommandArgs(['--db', db], COMMAND_OPTIONS.export, {}, {});
    const next = await runPostgresExport(config, warehouseSettings(config, url)!, silentLogger);
    expect(next.error).toBeNull();
    expect(await server.query(PG_MONTHS, [], 'finance')).toEqual(storeMonths.map((m) => ({ month: m.month, n: m.n, s: m.s })));
    const exports = await server.query<{ status: string }>('SELECT status FROM recon.exports ORDER BY started_at', [], 'finance');
    expect(exports.map((e) => e.status)).toEqual(['interrupted', 'succeeded']);
    const runs = await query(db, `SELECT status FROM runs WHERE command = 'export' ORDER BY started_at`);
    expect(runs.map((r) => r.status)).toEqual(['interrupted', 'succeeded']);
  }, 120_000);
});
