// recon export --postgres against a real PostgreSQL (test/helpers/postgres.ts): exact types, months
// replaced only when they changed, a reader never seeing half a month, and the schema's own records.
import path from 'node:path';
import { readdirSync } from 'node:fs';
import { ROOT } from '../helpers/child.js';
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { parseCommandArgs, COMMAND_OPTIONS } from '../../pipelines/config.js';
import { silentLogger } from '../../src/log.js';
import { runPostgresExport } from '../../pipelines/warehouse.js';
import { warehouseSettings } from '../../pipelines/settings.js';
import { postgresBinDir, postgresForSuite, provisionExport } from '../helpers/postgres.js';
import { monthsOfLines, writeMonthsStore, type Line } from '../helpers/months-store.js';
import { query } from '../helpers/recon.js';
import { dirPerTest } from '../helpers/temp-dir.js';

const PASSWORD = 'pg-Secret-7f3a9c';

async function exportOnce(db: string, url: string, opts: Parameters<typeof runPostgresExport>[3] = {}) {
  const { config } = parseCommandArgs(['--db', db], COMMAND_OPTIONS.export, {}, {});
  return runPostgresExport(config, warehouseSettings(config, url)!, silentLogger, opts);
}

describe.skipIf(postgresBinDir() === null)('recon export --postgres', () => {
  const server = postgresForSuite();
  const t = dirPerTest();
  let roles = 0;

  /** A database of its own with the README's role, for one test. */
  async function target(reader = false): Promise<{ url: string; database: string; reader?: string }> {
    roles += 1;
    const database = `finance_${roles}`;
    await provisionExport(server, { database, schema: 'recon', role: `recon_export_${roles}`, password: PASSWORD, reader: reader ? `reader_${roles}` : undefined });
    return { url: server.url(`recon_export_${roles}`, PASSWORD, database), database, reader: reader ? `reader_${roles}` : undefined };
  }

  it('writes money, sums and major amounts exactly: JPY, KWD, VND, a bigint past 2^53 and a sum past 2^63', async () => {
    const big = '9007199254740993'; // 2^53 + 1: a float would make it ...992
    const huge = '6917529027641081857'; // 0.75 × 2^63 + 1: two of them sum past bigint
    const lines: Line[] = [
      { id: 'd_jpy', month: '2026-03', currency: 'JPY', payouts: ['1234', '1'] },
      { id: 'd_kwd', month: '2026-03', currency: 'KWD', payouts: ['1234', '5'] },
      { id: 'd_vnd', month: '2026-04', currency: 'VND', payouts: ['12345'] },
      { id: 'd_mga', month: '2026-04', currency: 'MGA', payouts: ['6'] },
      { id: 'd_big', month: '2026-04', currency: 'EUR', payouts: [big] },
      { id: 'd_huge', month: '2026-05', currency: 'USD', payouts: [huge, huge], raw: '{"a":"nul \\u0000 here","b":[1,2]}' },
    ];
    // d_huge's amount (its payouts' sum) is past bigint: the store's BIGINT cannot hold it, so it carries 1 and the lines carry the rest
    lines[5]!.payouts = [huge, huge];
    const store = await writeMonthsStoreWithAmount(t.dir, lines);
    const { url, database } = await target();
    const out = await exportOnce(store.db, url);
    expect(out.error).toBeNull();
    expect(out.result?.replaced).toEqual(['2026-03', '2026-04', '2026-05', '*']);
    const rows = await server.query<Record<string, string>>(`SELECT disbursement_id, currency, reported::text AS reported, reported_major::text AS major,
        payouts_sum::text AS payouts_sum, payouts_sum_major::text AS payouts_major, pg_typeof(payouts_sum)::text AS sum_type, month
      FROM recon.reconciliation ORDER BY disbursement_id`, [], database).then((r) => r.map((x) => ({ ...x })));
    const by = Object.fromEntries(rows.map((r) => [r.disbursement_id, r]));
    expect(by.d_jpy).toMatchObject({ major: '1235', payouts_sum: '1235', sum_type: 'numeric', month: '2026-03' });
    expect(by.d_kwd).toMatchObject({ major: '1.239', payouts_major: '1.239' });
    expect(by.d_vnd).toMatchObject({ major: '1234.5' });
    expect(by.d_mga).toMatchObject({ major: '1.2' });
    expect(by.d_big).toMatchObject({ payouts_sum: big, major: '90071992547409.93' });
    expect(by.d_huge).toMatchObject({ payouts_sum: (2n * BigInt(huge)).toString(), payouts_major: '138350580552821637.14' });
    const [p] = await server.query<Record<string, string>>(`SELECT amount::text AS amount, pg_typeof(amount)::text AS t FROM recon.payouts WHERE disbursement_id = 'd_big'`, [], database);
    expect(p).toEqual({ amount: big, t: 'bigint' });
    const [d] = await server.query<Record<string, unknown>>(`SELECT delivered_at, pg_typeof(delivered_at)::text AS t, raw, pg_typeof(raw)::text AS j,
        to_char(delivered_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS utc FROM recon.disbursements WHERE disbursement_id = 'd_huge'`, [], database);
    expect(d).toMatchObject({ t: 'timestamp with time zone', j: 'jsonb', utc: '2026-05-15 10:20:30.123456' });
    expect(d!.raw).toEqual({ a: 'nul \ufffd here', b: [1, 2] });
    const [text] = await server.query<{ raw: { note: string } }>(`SELECT raw FROM recon.disbursements WHERE disbursement_id = 'd_jpy'`, [], database);
    expect(text!.raw.note).toBe('tab\there, newline\nthere, back\\slash');
    const [version] = await server.query<{ v: number }>('SELECT max(version) AS v FROM recon.schema_migrations', [], database);
    // every migration of sql/postgres/schema applied, the schema's version recorded
    const latest = Math.max(...readdirSync(path.join(ROOT, 'sql', 'postgres', 'schema')).map((n) => Number(n.slice(0, 3))));
    expect(version!.v).toBe(latest);
  });

  it('replaces only the month that changed, and a second export with nothing changed writes nothing', async () => {
    const lines = monthsOfLines(12, 3, 4);
    const store = await writeMonthsStore(t.dir, lines);
    const { url, database } = await target();
    const first = await exportOnce(store.db, url);
    expect(first.result?.replaced).toHaveLength(13); // twelve months and the tables written whole
    const again = await exportOnce(store.db, url);
    expect(again.result).toMatchObject({ replaced: [], removed: [], rows: 0, months: 13 });
    const before = await server.query<{ month: string; exported_at: Date }>('SELECT month, exported_at FROM recon.export_months ORDER BY month', [], database);
    // the provider restates a disbursement of July: July (and the runs the night wrote) only
    const july = lines.find((l) => l.month === '2026-07')!;
    await writeMonthsStore(t.dir, [{ ...july, payouts: [...july.payouts, '777'] }], 'seed-run');
    const restated = await exportOnce(store.db, url);
    expect(restated.result?.replaced).toEqual(['2026-07', '*']);
    const after = await server.query<{ month: string; exported_at: Date }>('SELECT month, exported_at FROM recon.export_months ORDER BY month', [], database);
    const moved = after.filter((a, i) => a.exported_at.getTime() !== before[i]!.exported_at.getTime()).map((a) => a.month);
    expect(moved).toEqual(['*', '2026-07']);
    const [sum] = await server.query<{ n: string; s: string }>(`SELECT count(*)::text AS n, sum(amount)::text AS s FROM recon.payouts WHERE disbursement_id = $1`, [july.id], database);
    expect(sum).toEqual({ n: String(july.payouts.length + 1), s: String(july.payouts.reduce((a, b) => a + Number(b), 777)) });
    const exports = await server.query<{ status: string; months_replaced: string[] }>('SELECT status, months_replaced FROM recon.exports ORDER BY started_at', [], database);
    expect(exports.map((e) => [e.status, e.months_replaced.length])).toEqual([['succeeded', 13], ['succeeded', 0], ['succeeded', 2]]);
    // the store remembers the same months and fingerprints as PostgreSQL
    const kept = await query(store.db, `SELECT month, fingerprint FROM month_exports ORDER BY month`);
    const held = await server.query<{ month: string; fingerprint: string }>('SELECT month, fingerprint FROM recon.export_months ORDER BY month', [], database);
    expect(kept.map((k) => [k.month, k.fingerprint])).toEqual(held.map((h) => [h.month, h.fingerprint]));
  });

  it('lets a reader see a month before or after its export, never half of it', async () => {
    const lines = monthsOfLines(3, 20, 5);
    const store = await writeMonthsStore(t.dir, lines);
    const { url, database, reader } = await target(true);
    await exportOnce(store.db, url);
    const sums = `SELECT (SELECT count(*) FROM recon.payouts WHERE month = '2026-02')::int AS payouts,
        (SELECT coalesce(sum(amount), 0) FROM recon.payouts WHERE month = '2026-02')::text AS paid,
        (SELECT coalesce(sum(amount), 0) FROM recon.disbursements WHERE month = '2026-02')::text AS disbursed,
        (SELECT coalesce(sum(disbursed_total), 0) FROM recon.monthly_summary WHERE month = '2026-02')::text AS summary`;
    const readerUrl = server.url(reader!, 'reader', database);
    const pgClient = (await import('pg')).default.Client;
    const r = new pgClient({ connectionString: readerUrl });
    await r.connect();
    try {
      const before = (await r.query(sums)).rows[0];
      // February restated: every disbursement of the month gains a payout
      await writeMonthsStore(t.dir, lines.filter((l) => l.month === '2026-02').map((l) => ({ ...l, payouts: [...l.payouts, '100'] })));
      const seen: unknown[] = [];
      await exportOnce(store.db, url, { beforeCommit: async (month) => {
        if (month === '2026-02') seen.push((await r.query(sums)).rows[0]); // the month's rows are deleted and copied again, not committed
      } });
      const after = (await r.query(sums)).rows[0];
      expect(seen).toEqual([before]);
      expect(after).toEqual({ payouts: before.payouts + 20, paid: String(BigInt(before.paid) + 2000n), disbursed: String(BigInt(before.disbursed) + 2000n),
        summary: String(BigInt(before.summary) + 2000n) });
      expect(after.paid).toBe(after.disbursed);
    } finally {
      await r.end();
    }
  });
});

/** writeMonthsStore, for lines whose payouts' sum a BIGINT amount cannot hold: the amount is then 1. */
async function writeMonthsStoreWithAmount(dir: string, lines: Line[]) {
  const store = await writeMonthsStore(dir, lines.map((l) => ({ ...l, payouts: l.payouts.reduce((s, p) => s + BigInt(p), 0n) > 2n ** 63n - 1n ? ['1'] : l.payouts })));
  const instance = await DuckDBInstance.create(store.db);
  const c = await instance.connect();
  try {
    for (const l of lines) {
      if (l.payouts.reduce((s, p) => s + BigInt(p), 0n) <= 2n ** 63n - 1n) continue;
      await c.run('DELETE FROM payouts WHERE disbursement_id = $1', [l.id]);
      for (const [i, amount] of l.payouts.entries()) {
        await c.run(`INSERT INTO payouts (disbursement_id, line_no, currency, amount, run_id, raw, occurrence) VALUES ($1, $2, $3, CAST($4 AS BIGINT), 'seed-run', '{}', 1)`,
          [l.id, i + 1, l.currency, amount]);
      }
    }
    const { publishSnapshot } = await import('../../src/store/publish.js');
    await publishSnapshot({ sourceConnection: c, publishedPath: store.published });
  } finally {
    c.closeSync();
    instance.closeSync();
  }
  return store;
}

