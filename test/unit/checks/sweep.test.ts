// The structure holds together: every sql/checks file runs on an empty store and on the clean dataset,
// returns the contract's columns, and finds nothing.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_COLUMNS, DEFAULT_CHECKS_DIR } from '../../../src/checks/contract.js';
import { runChecks } from '../../../src/checks/runner.js';
import { checkSql, loadClean, openTempStore, type TempStore } from '../../helpers/check-fixtures.js';

const CHECK_IDS = readdirSync(DEFAULT_CHECKS_DIR)
  .filter((n) => n.endsWith('.sql'))
  .map((n) => n.slice(0, -4))
  .sort();

const REQUIRED = [
  'total_identity', 'gross_variance', 'count_payments', 'count_refunds', 'count_adjustments',
  'currency_mismatch', 'duplicate_payout', 'duplicate_refund', 'duplicate_adjustment', 'unknown_entry_type',
  'invalid_record', 'file_vs_api', 'bank_account_changed', 'restated', 'missing_files',
  'payment_cross_check', 'incomplete_disbursement', 'unlisted_currency',
];

// The checks only read: one empty store and one clean store for the whole sweep (a store per case was all
// but the whole cost of this file), and a store of its own for the runner, which writes its run.
function shared(load: boolean): () => TempStore {
  let t: TempStore;
  beforeAll(async () => {
    t = await openTempStore();
    if (load) await loadClean(t.connection);
  });
  afterAll(async () => {
    await t?.close();
  });
  return () => t;
}

describe('the check sweep', () => {
  it('has a file for every check of the contract', () => {
    expect(CHECK_IDS).toEqual(expect.arrayContaining(REQUIRED));
  });

  describe('on an empty store', () => {
    const empty = shared(false);
    it.each(CHECK_IDS)('%s returns exactly the exception columns and no rows on an empty store', async (id) => {
      const reader = await empty().connection.runAndReadAll(await checkSql(id));
      expect(reader.columnNames()).toEqual(['check_id', 'severity', ...CHECK_COLUMNS]);
      expect(reader.currentRowCount).toBe(0);
    });
  });

  describe('on the clean dataset', () => {
    const clean = shared(true);
    it.each(CHECK_IDS)('%s finds nothing in the clean JPY/KWD/MGA/EUR dataset', async (id) => {
      const reader = await clean().connection.runAndReadAll(await checkSql(id));
      expect(reader.getRowObjectsJS()).toEqual([]);
    });
  });

  it('runs every check through the runner on the clean dataset with zero findings', async () => {
    const t = await openTempStore();
    try {
      await loadClean(t.connection);
      const result = await runChecks(t.connection, { runId: 'check-1', now: new Date('2026-07-01T03:00:00Z') });
      expect(result.checks.map((c) => c.checkId)).toEqual(CHECK_IDS);
      expect(result.findings).toBe(0);
      expect(result.actionable).toBe(0);
      expect(result.byStatus).toEqual({ new: 0, open: 0, acknowledged: 0, resolved: 0 });
    } finally {
      await t.close();
    }
  });
});
