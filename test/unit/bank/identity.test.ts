// statement identities that never collide, proved both ways. Two days' MT940 exports that reuse
// :20:/:28C: (STARTUMS / 00000) with entries without a bank reference, and a camt.053 whose two accounts'
// statements share a Stmt/Id, keep every entry; a file imported again, or an export overlapping one
// imported before, adds nothing. A store migrated from the first identity (rows with the old identity) keeps its rows
// and a re-import adds nothing, while the entries the old identity had lost are added at last.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { importStatements } from '../../../src/bank/import.js';
import { openStore } from '../../../src/store/db.js';
import { SQL_DIR } from '../../../src/paths.js';
import { ROOT } from '../../helpers/child.js';
import { tempDir } from '../../helpers/recon.js';

const fixture = (dialect: string, file: string) => path.join(ROOT, 'test', 'fixtures', 'bank', dialect, file);
const DAY1 = fixture('deutsche-bank', 'sparkasse-2026-02-26.sta');
const DAY2 = fixture('deutsche-bank', 'sparkasse-2026-02-27.sta');

describe('identity', () => {
  it('keeps both days of an MT940 export that reuses :20:/:28C:, and adds nothing for a re-import or an overlapping export', async () => {
    const t = tempDir();
    const store = await openStore(':memory:');
    try {
      const c = store.connection;
      expect((await importStatements(c, [DAY1], 'r1')).added).toBe(2);
      expect((await importStatements(c, [DAY2], 'r2')).added).toBe(4); // called these "already imported"
      expect((await importStatements(c, [DAY1, DAY2], 'r3')).added).toBe(0);
      // the bank's export of both days in one file (another name): nothing new
      const both = path.join(t.dir, 'export-feb.sta');
      writeFileSync(both, Buffer.concat([readFileSync(DAY1), readFileSync(DAY2)]));
      expect((await importStatements(c, [both], 'r4'))).toMatchObject({ statements: 2, entries: 6, added: 0 });
      const rows = (await c.runAndReadAll(`SELECT value_date::VARCHAR, direction, amount FROM bank_transactions ORDER BY ALL`)).getRows();
      expect(rows.map((r) => r.join(' '))).toEqual(['2026-02-26 credit 250000', '2026-02-26 debit 1990', '2026-02-27 credit 250000',
        '2026-02-28 credit 120', '2026-03-02 credit 1990', '2026-03-02 debit 5000']);
    } finally {
      store.close();
      t.cleanup();
    }
  });

  it('keeps both accounts of a camt.053 whose statements share a Stmt/Id, entries without NtryRef', async () => {
    const store = await openStore(':memory:');
    try {
      const c = store.connection;
      const file = fixture('camt053-batch-nl', 'camt053-2026-11-04-utf16.xml');
      expect(await importStatements(c, [file], 'r1')).toMatchObject({ statements: 2, entries: 3, added: 3 });
      expect((await importStatements(c, [file], 'r2')).added).toBe(0);
      const rows = (await c.runAndReadAll(`SELECT account, amount, batch_count FROM bank_transactions WHERE direction = 'credit' ORDER BY account`)).getRows();
      expect(rows).toEqual([['**************4300', 99900n, 2], ['**************4567', 99900n, null]]);
    } finally {
      store.close();
    }
  });

  it('migrates a store made before entry keys: its rows stay, a re-import adds nothing and fills their keys, and the entries the old identity lost arrive', async () => {
    const t = tempDir();
    try {
      const db = path.join(t.dir, 'recon.duckdb');
      // a store as the first identity left it: the migrations up to 020, and the first day imported with that identity
      const instance = await DuckDBInstance.create(db);
      const old = await instance.connect();
      await old.run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL)');
      for (const name of ['001_core.sql', '002_payment_samples.sql', '003_exceptions.sql', '004_closes.sql', '005_service_settings.sql', '020_bank.sql']) {
        await old.run(readFileSync(path.join(SQL_DIR, 'schema', name), 'utf8'));
        await old.run('INSERT INTO schema_migrations VALUES ($1, $2, now())', [Number(name.slice(0, 3)), name]);
      }
      const legacy = (ref: string, date: string, amount: number, direction: string, remittance: string) => old.run(
        `INSERT INTO bank_transactions VALUES ('mt940:37040044/0532013000:STARTUMS:00000/001', $1, 'mt940', '***************3000', '3000',
           CAST($2 AS DATE), CAST($2 AS DATE), $3, 'EUR', $4, NULL, $5, NULL, NULL, 'sparkasse-2026-02-26.sta', 'old-run', now())`,
        [ref, date, amount, direction, remittance]);
      await legacy('i:1', '2026-02-26', 250000, 'credit', 'SETTLEMENT DSB-4001');
      await legacy('i:2', '2026-02-26', 1990, 'debit', 'Strom');
      old.closeSync();
      instance.closeSync();

      const store = await openStore(db); // applies 021
      try {
        const c = store.connection;
        expect((await c.runAndReadAll('SELECT count(*)::INT FROM schema_migrations WHERE version = 21')).getRows()).toEqual([[1]]);
        expect((await importStatements(c, [DAY1], 'r1')).added).toBe(0); // the same file again: the rows are recognised
        expect((await c.runAndReadAll('SELECT count(*) FROM bank_transactions WHERE account_key IS NULL')).getRows()).toEqual([[0n]]);
        expect((await importStatements(c, [DAY2], 'r2')).added).toBe(4); // had lost the second day to 'i:1'…'i:4'
        expect((await importStatements(c, [DAY1, DAY2], 'r3')).added).toBe(0);
        expect((await c.runAndReadAll('SELECT count(*), count(DISTINCT (account_key, entry_key)) FROM bank_transactions')).getRows()).toEqual([[6n, 6n]]);
      } finally {
        store.close();
      }
    } finally {
      t.cleanup();
    }
  });

  it('adds nothing for the same file under another name', async () => {
    const t = tempDir();
    const store = await openStore(':memory:');
    try {
      const copy = path.join(t.dir, 'renamed.bai');
      copyFileSync(fixture('bai2-jpmorgan', 'jpmorgan-2026-11-03.bai'), copy);
      expect((await importStatements(store.connection, [fixture('bai2-jpmorgan', 'jpmorgan-2026-11-03.bai')], 'r1')).added).toBe(3);
      expect((await importStatements(store.connection, [copy], 'r2')).added).toBe(0);
    } finally {
      store.close();
      t.cleanup();
    }
  });
});
