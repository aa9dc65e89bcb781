// The StoreWriter commits one batch while the next is gathered (#28): a caller's add waits only for the
// batch before the one its bundle completed, so at most two batches are held; every batch is still
// committed whole and in order, and a batch that fails reaches the caller at its next add or flush.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/db.js';
import { StoreWriter } from '../../../src/store/writer.js';
import { bundle } from '../../helpers/bundles.js';

let store: Store;
beforeEach(async () => {
  store = await openStore(':memory:');
});
afterEach(() => store.close());

const count = async (sql: string) => Number((await store.connection.runAndReadAll(sql)).getRows()[0]![0]);
const committedIds = async () =>
  (await store.connection.runAndReadAll('SELECT disbursement_id FROM disbursements ORDER BY disbursement_id')).getRows().map((r) => String(r[0]));

describe('StoreWriter batches', () => {
  it('an add returns once the batch before its own is committed, and the last flush commits the rest whole', async () => {
    // every bundle completes a batch (two payouts each, a batch at two lines)
    const writer = new StoreWriter(store.connection, 'run-1', new Map(), { flushLines: 2, flushIntervalMs: 60_000 });
    await writer.add(bundle('d1'));
    await writer.add(bundle('d2'));
    // d2's batch may still be committing; d1's is in
    expect(await committedIds()).toContain('d1');
    await writer.add(bundle('d3'));
    expect(await committedIds()).toEqual(expect.arrayContaining(['d1', 'd2']));
    await writer.flush();
    expect(await committedIds()).toEqual(['d1', 'd2', 'd3']);
    expect(await count('SELECT count(*) FROM payouts')).toBe(6);
    expect(await count('SELECT count(*) FROM file_lines')).toBe(9);
    expect(writer.counts.disbursements).toBe(3);
  });

  it('a batch that fails is rolled back whole and reaches the caller at its next flush; the batches before stay committed', async () => {
    const writer = new StoreWriter(store.connection, 'run-1', new Map(), { flushLines: 2, flushIntervalMs: 60_000 });
    await writer.add(bundle('d1'));
    await writer.flush();
    // the next batch's file lines cannot be appended: its payouts, appended first in the same transaction, go too
    await store.connection.run('CREATE TABLE file_lines_kept AS SELECT * FROM file_lines');
    await store.connection.run('DROP TABLE file_lines CASCADE');
    await writer.add(bundle('d2')); // waits for d1's batch only
    await expect(writer.flush()).rejects.toThrow(/file_lines/);
    expect(await committedIds()).toEqual(['d1']);
    expect(await count(`SELECT count(*) FROM payouts WHERE disbursement_id = 'd2'`)).toBe(0);
    expect(writer.counts.disbursements).toBe(1);
  });

  it('a failed batch reaches the next add that completes a batch, not only the last flush', async () => {
    const writer = new StoreWriter(store.connection, 'run-1', new Map(), { flushLines: 2, flushIntervalMs: 60_000 });
    await store.connection.run('DROP TABLE file_lines CASCADE');
    await writer.add(bundle('d1'));
    await expect(writer.add(bundle('d2'))).rejects.toThrow(/file_lines/);
  });
});
