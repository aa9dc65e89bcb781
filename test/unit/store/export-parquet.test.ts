// `recon export --parquet`: exact types (money INT64, sums DECIMAL(38,0), never a floating type), rows without a
// month in Hive's null partition, only the months that changed written again, new file names per export and a
// manifest written last, so a reader following it never sees two exports mixed — not even while the next
// export is writing.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportParquet, type ParquetExport } from '../../../src/store/export.js';
import type { Manifest } from '../../../src/store/export-files.js';
import { openReadOnly, publishSnapshot } from '../../../src/store/publish.js';
import { historyStore, monthsFrom, withStore, type HistoryStore } from '../../helpers/history-store.js';
import { tempDir } from '../../helpers/recon.js';

/** Each test publishes and exports several times: minutes on a busy shared machine, never a figure here. */
const SLOW = 300_000;
let t: { dir: string; cleanup: () => void };
let store: HistoryStore;
let out: string;
let reader: { instance: DuckDBInstance; connection: DuckDBConnection };
const months = monthsFrom('2026-01', 3);
let clock = Date.parse('2026-03-21T02:00:00Z');
const now = () => new Date((clock += 60_000));

const publish = () =>
  withStore(store.db, (c) => publishSnapshot({ sourceConnection: c, publishedPath: store.published }));

/** `read` on the snapshot as it is now, in a read-only session of its own (as `recon export` opens it). */
async function onSnapshot<T>(read: (snap: DuckDBConnection) => Promise<T>): Promise<T> {
  const snap = await openReadOnly(store.published);
  try {
    return await read(snap.connection);
  } finally {
    snap.connection.closeSync();
    snap.instance.closeSync();
  }
}

/** One export of the snapshot as it is now. */
const exportNow = (beforeManifest?: () => Promise<void>): Promise<ParquetExport> =>
  onSnapshot((snap) => exportParquet(snap, out, { now, beforeManifest }));

const manifest = async (): Promise<Manifest> =>
  JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8')) as Manifest;
const filesOf = (m: Manifest, object: string) => m.objects[object]!.files.map((f) => path.join(out, f.path));
const json = (rows: unknown[][]) => JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
const list = (files: readonly string[]) => `[${files.map((f) => `'${f.replace(/'/g, "''")}'`).join(', ')}]`;

/** What a reader following `m` finds: payouts' rows and total by month (the Hive partition), and the export id. */
async function readThrough(m: Manifest): Promise<unknown[][]> {
  const r = await reader.connection.runAndReadAll(`SELECT month, count(*)::INTEGER, sum(amount)::BIGINT
    FROM read_parquet(${list(filesOf(m, 'payouts'))}, hive_partitioning = true) GROUP BY month ORDER BY month`);
  return r.getRowsJS();
}

beforeAll(async () => {
  t = tempDir('recon-export-');
  store = await historyStore(t.dir, months);
  out = path.join(t.dir, 'export');
  // a disbursement the service sent without a delivery time: its rows have no month
  await withStore(store.db, (c) => c.run(`INSERT INTO disbursements SELECT * REPLACE ('dsb_undated' AS disbursement_id,
    NULL AS delivered_at) FROM disbursements WHERE disbursement_id = 'dsb_2026-02_0'`));
  await publish();
  reader = { instance: await DuckDBInstance.create(':memory:'), connection: undefined as unknown as DuckDBConnection };
  reader.connection = await reader.instance.connect();
}, SLOW);
afterAll(() => {
  reader?.connection.closeSync();
  reader?.instance.closeSync();
  t.cleanup();
});

describe('recon export --parquet', () => {
  it('writes money as INT64 and sums as DECIMAL(38,0), never a floating type, and the values exactly', async () => {
    const first = await exportNow();
    expect(first.filesWritten).toBeGreaterThan(0);
    const m = await manifest();
    expect(m.export_id).toBe(first.exportId);
    const every = Object.values(m.objects).flatMap((o) => o.files.map((f) => path.join(out, f.path)));
    const types = (await reader.connection.runAndReadAll(`SELECT DISTINCT name, type, logical_type::VARCHAR
      FROM parquet_schema(${list(every)}) WHERE num_children IS NULL OR num_children = 0`)).getRowsJS();
    expect(types.filter((r) => /DOUBLE|FLOAT/i.test(String(r[1])))).toEqual([]);
    const typeOf = (name: string) => types.filter((r) => r[0] === name).map((r) => `${r[1]} ${r[2]}`);
    expect(typeOf('amount')).toEqual(['INT64 null']);
    expect(typeOf('payouts_sum')[0]).toMatch(/DECIMAL.*precision=38.*scale=0|scale=0.*precision=38/i);
    expect(m.objects.reconciliation!.columns).toContainEqual({ name: 'payouts_sum', type: 'DECIMAL(38,0)' });
    // read back, a sum is the snapshot's own, to the subunit
    const want = await onSnapshot(async (snap) => (await snap.runAndReadAll(`SELECT disbursement_id, payouts_sum
      FROM reconciliation WHERE payouts_sum IS NOT NULL ORDER BY 1`)).getRowsJS());
    const got = (await reader.connection.runAndReadAll(`SELECT disbursement_id, CAST(payouts_sum AS HUGEINT)
      FROM read_parquet(${list(filesOf(m, 'reconciliation'))}) WHERE payouts_sum IS NOT NULL ORDER BY 1`))
      .getRowsJS();
    expect(got).toEqual(want);
    expect(want.length).toBeGreaterThan(10);
  }, SLOW);

  it('writes each finance view computed month by month exactly as the snapshot shows it whole', async () => {
    const m = await manifest();
    await onSnapshot(async (snap) => {
      for (const view of ['reconciliation', 'monthly_summary', 'finding_groups', 'payment_lines', 'bank_status']) {
        const columns = (await snap.runAndReadAll(`SELECT column_name, data_type FROM duckdb_columns()
          WHERE table_name = $1 AND column_name <> 'month' ORDER BY column_index`, [view])).getRowsJS();
        const names = columns.map((r) => `"${String(r[0])}"`).join(', ');
        const typed = columns.map((r) => `CAST("${String(r[0])}" AS ${String(r[1])}) AS "${String(r[0])}"`).join(', ');
        const whole = (await snap.runAndReadAll(`SELECT ${names} FROM ${view} ORDER BY ALL`)).getRowsJS();
        const exported = (await reader.connection.runAndReadAll(`SELECT ${typed}
          FROM read_parquet(${list(filesOf(m, view))}, union_by_name = true) ORDER BY ALL`)).getRowsJS();
        expect(json(exported), view).toEqual(json(whole));
        expect(whole.length, view).toBeGreaterThan(0);
      }
    });
  }, SLOW);

  it("puts rows without a month in Hive's null partition", async () => {
    const m = await manifest();
    const undated = m.objects.disbursements!.files.filter((f) => f.month === 'none');
    expect(undated.map((f) => f.path))
      .toEqual([expect.stringMatching(/^disbursements\/month=__HIVE_DEFAULT_PARTITION__\//)]);
    expect(m.objects.disbursements!.files.some((f) => f.path.includes('month=none'))).toBe(false);
    const r = await reader.connection.runAndReadAll(`SELECT disbursement_id, month
      FROM read_parquet(${list(filesOf(m, 'disbursements'))}, hive_partitioning = true) WHERE month IS NULL`);
    expect(r.getRowsJS()).toEqual([['dsb_undated', null]]);
  }, SLOW);

  it('writes again only the months that changed, under new names', async () => {
    const before = await manifest();
    const same = await exportNow();
    expect(same.filesWritten).toBe(0);
    expect((await manifest()).objects.payouts).toEqual(before.objects.payouts);
    // one payout of February restated
    await withStore(store.db, (c) => c.run(`UPDATE payouts SET amount = amount + 5, run_id = 'restated'
      WHERE disbursement_id = 'dsb_2026-02_1' AND line_no = 1`));
    await publish();
    const next = await exportNow();
    const after = await manifest();
    const changed = (object: string) => after.objects[object]!.files.filter((f) => f.path.includes(next.exportId))
      .map((f) => f.month);
    expect(changed('payouts')).toEqual(['2026-02']);
    expect(changed('reconciliation')).toEqual(['2026-02']);
    const kept = after.objects.payouts!.files.filter((f) => f.month !== '2026-02');
    expect(kept).toEqual(before.objects.payouts!.files.filter((f) => f.month !== '2026-02'));
    // the file it replaced is another name: a reader's listing never finds other bytes under a name
    const feb = (m: Manifest) => m.objects.payouts!.files.find((f) => f.month === '2026-02')!.path;
    expect(feb(after)).not.toBe(feb(before));
  }, SLOW);

  it('never mixes two exports for a reader that follows the manifest, even while the next export writes', async () => {
    const older = await manifest();
    const seenBefore = await readThrough(older);
    await withStore(store.db, (c) => c.run(`UPDATE payouts SET amount = amount + 7, run_id = 'restated-2'
      WHERE disbursement_id LIKE 'dsb_2026-0%' AND line_no = 2`));
    await publish();
    let during: { id: string; rows: unknown[][]; other: unknown } | null = null;
    const next = await exportNow(async () => {
      // every file of the new export is on disk; the manifest still names the old one, and only its files
      const m = await manifest();
      during = { id: m.export_id, rows: await readThrough(m), other: await exportNow().catch((e: Error) => e.message) };
    });
    expect(during!.id).toBe(older.export_id);
    expect(during!.rows).toEqual(seenBefore);
    // a second export of the same folder waits for none: it is refused while one writes
    expect(during!.other).toMatch(/another recon export .* is writing/);
    const newer = await manifest();
    expect(newer.export_id).toBe(next.exportId);
    const seenAfter = await readThrough(newer);
    expect(seenAfter).not.toEqual(seenBefore);
    // a reader that listed the old export before the swap still reads it whole, as it was
    expect(await readThrough(older)).toEqual(seenBefore);
    // the export after that removes the files only the oldest named
    const onlyOlder = filesOf(older, 'payouts').filter((f) => !filesOf(newer, 'payouts').includes(f));
    expect(onlyOlder.length).toBeGreaterThan(0);
    await withStore(store.db, (c) => c.run(`UPDATE payouts SET amount = amount + 1, run_id = 'restated-3'
      WHERE disbursement_id = 'dsb_2026-03_0' AND line_no = 3`));
    await publish();
    const third = await exportNow();
    expect(third.filesRemoved).toBeGreaterThan(0);
    for (const f of onlyOlder) expect(existsSync(f), f).toBe(false);
    for (const f of filesOf(newer, 'payouts')) expect(existsSync(f), f).toBe(true);
    expect(await readThrough(await manifest())).not.toEqual(seenAfter);
  }, SLOW);
});
