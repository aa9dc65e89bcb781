// StoreWriter with a second connection: a batch is appended on one connection while the batch
// before commits on the other. What it writes is what one connection writes; commits stay in order; a
// disbursement in two batches in flight is written once, its earlier version archived; a batch that
// fails to commit fails the batches after it and stops the caller at its next add.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openStore, type Store } from '../../../src/store/db.js';
import { StoreWriter } from '../../../src/store/writer.js';
import type { DisbursementBundle } from '../../../src/store/bundle.js';
import { testBundle } from '../../helpers/bundles.js';

let stores: Store[] = [];
let seconds: DuckDBConnection[] = [];
beforeEach(() => {
  stores = [];
  seconds = [];
});
afterEach(() => {
  for (const c of seconds) c.closeSync();
  for (const s of stores) s.close();
});

async function open(): Promise<Store> {
  const store = await openStore(':memory:');
  stores.push(store);
  return store;
}

async function secondOf(store: Store): Promise<DuckDBConnection> {
  const c = await store.instance.connect();
  seconds.push(c);
  return c;
}

const rows = async (store: Store, sql: string) => (await store.connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];

/** Everything the writer wrote, but the times it stamps (synced_at, downloaded_at, archived_at, quarantined_at). */
async function contents(store: Store): Promise<string> {
  const out: Record<string, unknown> = {};
  for (const [table, order] of [['disbursements', 'disbursement_id'], ['payouts', 'disbursement_id, line_no'], ['refunds', 'disbursement_id, line_no'],
    ['adjustments', 'disbursement_id, line_no'], ['disbursement_files', 'disbursement_id, file_no'], ['file_lines', 'disbursement_id, file_no, line_no'],
    ['quarantine', 'disbursement_id, resource, line_no'], ['disbursement_history', 'disbursement_id, version']] as const) {
    const columns = (await rows(store, `SELECT column_name FROM duckdb_columns() WHERE table_name = '${table}' AND data_type NOT LIKE 'TIMESTAMP%'`))
      .map((r) => String(r.column_name));
    out[table] = await rows(store, `SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${order}`);
  }
  return JSON.stringify(out, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
}

/** Night one writes seven disbursements; night two rewrites three of them changed and adds two. */
async function twoNights(store: Store, second: DuckDBConnection | undefined, committed: string[][]): Promise<void> {
  const amount = (n: number) => (b: DisbursementBundle) => ((b.payouts[0]!.value as { amount: number }).amount = n);
  const stored = new Map();
  const first = new StoreWriter(store.connection, 'run1', stored, { second, flushDisbursements: 2, flushIntervalMs: 1e9, onCommit: (ids) => committed.push(ids) });
  for (let i = 0; i < 7; i += 1) await first.add(testBundle(`d${i}`));
  await first.flush();
  const again = new StoreWriter(store.connection, 'run2', stored, { second, flushDisbursements: 2, flushIntervalMs: 1e9, onCommit: (ids) => committed.push(ids) });
  for (const b of [testBundle('d1', amount(501)), testBundle('d7'), testBundle('d4', amount(502)), testBundle('d5', amount(503)), testBundle('d8')]) await again.add(b);
  await again.flush();
  expect(again.counts).toMatchObject({ disbursements: 5, restated: 3 });
}

describe('StoreWriter with a second connection', () => {
  it('writes what one connection writes, commits in order, and archives the versions it replaces', async () => {
    const one = await open();
    const two = await open();
    const committedOne: string[][] = [];
    const committedTwo: string[][] = [];
    await twoNights(one, undefined, committedOne);
    await twoNights(two, await secondOf(two), committedTwo);
    expect(committedTwo).toEqual(committedOne);
    expect(committedTwo).toEqual([['d0', 'd1'], ['d2', 'd3'], ['d4', 'd5'], ['d6'], ['d1', 'd7'], ['d4', 'd5'], ['d8']]);
    expect(await contents(two)).toEqual(await contents(one));
    expect(await rows(two, 'SELECT disbursement_id, version FROM disbursements WHERE version > 1 ORDER BY 1')).toEqual([
      { disbursement_id: 'd1', version: 2 }, { disbursement_id: 'd4', version: 2 }, { disbursement_id: 'd5', version: 2 }]);
    expect(await rows(two, 'SELECT count(*)::INT AS n FROM payouts')).toEqual([{ n: 18 }]);
    expect(await rows(two, 'SELECT disbursement_id FROM disbursement_history ORDER BY 1')).toEqual([
      { disbursement_id: 'd1' }, { disbursement_id: 'd4' }, { disbursement_id: 'd5' }]);
  });

  it('a disbursement in the batch still committing: the next batch waits for that commit and replaces it', async () => {
    const store = await open();
    // the first batch's COMMIT is slow (a busy disk): the second batch is ready long before it ends
    const run = store.connection.run.bind(store.connection);
    store.connection.run = (async (sql: string, ...rest: unknown[]) => {
      if (sql === 'COMMIT') await new Promise((resolve) => setTimeout(resolve, 150));
      return (run as (s: string, ...r: unknown[]) => Promise<unknown>)(sql, ...rest);
    }) as typeof store.connection.run;
    const writer = new StoreWriter(store.connection, 'run1', new Map(), { second: await secondOf(store), flushDisbursements: 1, flushIntervalMs: 1e9 });
    await writer.add(testBundle('d1'));
    // the first batch's statements are done, its commit may still run: the same disbursement, changed
    await writer.add(testBundle('d1', (b) => ((b.payouts[0]!.value as { amount: number }).amount = 777)));
    await writer.flush();
    expect(await rows(store, `SELECT disbursement_id, version FROM disbursements`)).toEqual([{ disbursement_id: 'd1', version: 2 }]);
    expect(await rows(store, `SELECT line_no, amount::INT AS amount FROM payouts ORDER BY line_no`)).toEqual([{ line_no: 1, amount: 777 }, { line_no: 2, amount: 500 }]);
    expect(await rows(store, `SELECT disbursement_id, version FROM disbursement_history`)).toEqual([{ disbursement_id: 'd1', version: 1 }]);
  });

  it('a batch that fails to commit: the batches after it roll back, the next add and the flush throw', async () => {
    const store = await open();
    const second = await secondOf(store);
    const run = second.run.bind(second);
    // the second batch is the first on the second connection: its COMMIT fails (a full disk, say)
    second.run = (async (sql: string, ...rest: unknown[]) => {
      if (sql === 'COMMIT') throw new Error('IO Error: could not write the WAL');
      return (run as (s: string, ...r: unknown[]) => Promise<unknown>)(sql, ...rest);
    }) as typeof second.run;
    const writer = new StoreWriter(store.connection, 'run1', new Map(), { second, flushDisbursements: 1, flushIntervalMs: 1e9 });
    let thrown: unknown = null;
    let added = 0;
    try {
      for (let i = 0; i < 6; i += 1) {
        await writer.add(testBundle(`d${i}`));
        added += 1;
      }
    } catch (err) {
      thrown = err;
    }
    expect(String(thrown)).toMatch(/could not write the WAL/);
    expect(added).toBeLessThan(5); // stopped at once, not after reading everything
    await expect(writer.flush()).rejects.toThrow(/could not write the WAL/);
    expect(await rows(store, 'SELECT disbursement_id FROM disbursements')).toEqual([{ disbursement_id: 'd0' }]);
    expect(await rows(store, 'SELECT DISTINCT disbursement_id FROM payouts')).toEqual([{ disbursement_id: 'd0' }]);
    expect(writer.counts.disbursements).toBe(1);
  });
});
