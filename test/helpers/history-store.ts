// A store with months of history, written in SQL: per month `perMonth` disbursements (the 15th, 10:00 UTC)
// with `payouts` payouts, a refund, a credit and a debit adjustment and a parsed file listing the lines again;
// the first disbursement of the first month reports one subunit too much (a total_identity finding) and the
// last month's first payout settles again a payment of the first month (a duplicate_payout finding). The
// checks run once (run 'seed-checks'), every month before the last is closed, and nothing is published.
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { openStore, type Store } from '../../src/store/db.js';
import { runChecks } from '../../src/checks/index.js';

export interface HistoryStore {
  dir: string;
  db: string;
  published: string;
  archive: string;
  months: string[];
}

const CCY = "['EUR','JPY','KWD','USD'][CAST(d % 4 AS INTEGER) + 1]";

/** Months from `first` ('YYYY-MM'), `count` of them. */
export function monthsFrom(first: string, count: number): string[] {
  const [y, m] = first.split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => {
    const index = y * 12 + m - 1 + i;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

export async function historyStore(
  dir: string, months: readonly string[], perMonth = 4, payouts = 5,
): Promise<HistoryStore> {
  const db = path.join(dir, 'recon.duckdb');
  const store = await openStore(db);
  try {
    const c = store.connection;
    await c.run(`INSERT INTO runs (run_id, command, started_at, finished_at, status)
      VALUES ('seed', 'run', now(), now(), 'succeeded'), ('seed-checks', 'run', now(), now(), 'succeeded')`);
    for (const month of months) await addMonth(c, month, perMonth, payouts, 'seed');
    await c.run(`UPDATE disbursements SET amount = amount + 1 WHERE disbursement_id = 'dsb_${months[0]}_0'`);
    await c.run(`UPDATE payouts SET payment_id = 'pay_${months[0]}_0_1'
      WHERE disbursement_id = 'dsb_${months.at(-1)}_0' AND line_no = 1`);
    await runChecks(c, { runId: 'seed-checks', now: new Date(`${months.at(-1)}-20T12:00:00Z`) });
    for (const month of months.slice(0, -1)) await closeMonthInSql(c, month);
  } finally {
    store.close();
  }
  const published = path.join(dir, 'published', 'recon.duckdb');
  return { dir, db, published, archive: path.join(dir, 'archive'), months: [...months] };
}

/** One month of disbursements, as the sync's writer would have stored them. */
export async function addMonth(
  c: DuckDBConnection, month: string, perMonth: number, payouts: number, run: string,
): Promise<void> {
  const id = `'dsb_${month}_' || CAST(d AS VARCHAR)`;
  const of = `disbursement_id LIKE 'dsb_${month}_%'`;
  await c.run(`INSERT INTO payouts SELECT ${id}, CAST(n AS INTEGER), 'rcp_' || CAST(d % 3 AS VARCHAR),
      'po_${month}_' || d || '_' || n, 'paid', 'pay_${month}_' || d || '_' || n, ${CCY},
      1000 + (d * 7919 + n * 104729) % 99000, '${run}', '{"k":1}', 1
    FROM range(${perMonth}) AS a(d), range(1, ${payouts + 1}) AS b(n)`);
  await c.run(`INSERT INTO refunds SELECT ${id}, 1, 'ref_${month}_' || d, 'pay_${month}_' || d || '_1', NULL, ${CCY},
      100 + d, '${run}', '{}', 1
    FROM range(${perMonth}) AS a(d)`);
  await c.run(`INSERT INTO adjustments SELECT ${id}, CAST(n AS INTEGER), 'adj_${month}_' || d || '_' || n, 'fee',
      CASE WHEN n = 1 THEN 'credit' ELSE 'debit' END, NULL, NULL, ${CCY}, 10 + n, '${run}', '{}', 1
    FROM range(${perMonth}) AS a(d), range(1, 3) AS b(n)`);
  await c.run(`INSERT INTO file_lines SELECT disbursement_id, 1,
      CAST(row_number() OVER (PARTITION BY disbursement_id ORDER BY line_no) + 1 AS INTEGER),
      'payout', NULL, reference, payment_id, currency, amount, '${run}', 'PAYOUT,' || reference, 1
    FROM payouts WHERE ${of}`);
  await c.run(`INSERT INTO disbursements
    SELECT p.disbursement_id, any_value(p.recipient_id), 'delivered', CAST('${month}-15 10:00:00+00' AS TIMESTAMPTZ),
      count(*), 1, 2, sum(p.amount) - any_value(r.amount) + 11 - 12, any_value(p.currency), '****1000',
      'complete', NULL, 1, md5(p.disbursement_id), '${run}', '${run}', now(), '{}'
    FROM payouts p JOIN refunds r USING (disbursement_id) WHERE p.${of} GROUP BY p.disbursement_id`);
  await c.run(`INSERT INTO disbursement_files SELECT disbursement_id, 1, 'settlement.csv', 'csv', md5(disbursement_id),
      100, 'csv-settlement', 'parsed', NULL, number_of_payments, NULL, NULL, '${run}', now()
    FROM disbursements WHERE ${of}`);
}

/** What `recon close` records of a month (the close workbook aside). */
export async function closeMonthInSql(c: DuckDBConnection, month: string): Promise<void> {
  await c.run(`INSERT INTO closes (month, version, closed_at, run_id, workbook, disbursements, disbursed_total)
    SELECT $1, 1, now(), 'seed', NULL, count(*), coalesce(sum(amount), 0)
    FROM disbursements WHERE month_of(delivered_at) = $1`, [month]);
  await c.run(`INSERT INTO close_disbursements SELECT $1, 1, disbursement_id, content_hash, amount, currency
    FROM disbursements WHERE month_of(delivered_at) = $1`, [month]);
}

/** Opens the store, runs `fn`, closes it. */
export async function withStore<T>(db: string, fn: (c: DuckDBConnection, store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(db);
  try {
    return await fn(store.connection, store);
  } finally {
    store.close();
  }
}
