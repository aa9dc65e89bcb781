// Test fixtures for the checks: a temporary store per test and a small, consistent dataset built with
// plain SQL inserts (no sync, no sandbox). Each named edge case starts from the clean dataset and
// changes one thing.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { openStore, type Store } from '../../src/store/db.js';
import { DEFAULT_CHECKS_DIR, loadChecks } from '../../src/checks/contract.js';
import { runFolder } from './run-folder.js';

export interface TempStore {
  store: Store;
  connection: DuckDBConnection;
  dir: string;
  close(): Promise<void>;
}

/**
 * An empty store made once per test file by openStore (every migration, every view and macro) and
 * checkpointed: a test's store is a copy of its file, opened as it is (0.03 s of CPU, where openStore takes
 * 0.3 s, most of it re-creating the views a copy already holds).
 */
let template: Promise<string> | undefined;

function emptyStoreFile(): Promise<string> {
  template ??= (async () => {
    const file = path.join(runFolder(), `empty-store-${process.pid}`, 'recon.duckdb');
    const store = await openStore(file);
    await store.connection.run('CHECKPOINT');
    store.close();
    return file;
  })();
  return template;
}

export async function openTempStore(): Promise<TempStore> {
  const dir = await mkdtemp(path.join(tmpdir(), 'recon-checks-'));
  const file = path.join(dir, 'recon.duckdb');
  await copyFile(await emptyStoreFile(), file);
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  const store: Store = {
    instance,
    connection,
    path: file,
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
  return {
    store,
    connection,
    dir,
    async close() {
      store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const SYNC_RUN = 'sync-1';

export interface LineSpec {
  ref: string;
  amount: number;
  paymentId?: string;
  currency?: string;
}
export interface AdjustmentSpec extends LineSpec {
  entryType: string;
}
export interface DisbursementSpec {
  id: string;
  recipient: string;
  currency: string;
  deliveredAt: string;
  payouts?: LineSpec[];
  refunds?: LineSpec[];
  adjustments?: AdjustmentSpec[];
  /** Overrides of what the lines imply. */
  amount?: number;
  numberOfPayments?: number;
  numberOfRefunds?: number;
  numberOfAdjustments?: number;
  bank?: string;
  syncStatus?: 'complete' | 'invalid' | 'incomplete';
  syncNote?: string;
  /** Parsed files mirroring the API lines, each with a footer; 0 for a recipient without files. */
  files?: number;
}

async function insert(connection: DuckDBConnection, table: string, row: Record<string, DuckDBValue>): Promise<void> {
  const cols = Object.keys(row);
  const sql = `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`;
  await connection.run(sql, Object.values(row));
}

export function computedAmount(spec: DisbursementSpec): number {
  const sum = (xs: LineSpec[] = []) => xs.reduce((s, x) => s + x.amount, 0);
  const adj = spec.adjustments ?? [];
  return (
    sum(spec.payouts) -
    sum(spec.refunds) +
    sum(adj.filter((a) => a.entryType === 'credit')) -
    sum(adj.filter((a) => a.entryType === 'debit'))
  );
}

export async function addDisbursement(connection: DuckDBConnection, spec: DisbursementSpec): Promise<void> {
  const payouts = spec.payouts ?? [];
  const refunds = spec.refunds ?? [];
  const adjustments = spec.adjustments ?? [];
  const amount = spec.amount ?? computedAmount(spec);
  await insert(connection, 'disbursements', {
    disbursement_id: spec.id,
    recipient_id: spec.recipient,
    status: 'delivered',
    delivered_at: spec.deliveredAt,
    number_of_payments: spec.numberOfPayments ?? payouts.length,
    number_of_refunds: spec.numberOfRefunds ?? refunds.length,
    number_of_adjustments: spec.numberOfAdjustments ?? adjustments.length,
    amount,
    currency: spec.currency,
    bank_account_number: spec.bank ?? `****${spec.recipient.slice(-4).padStart(4, '0')}`,
    sync_status: spec.syncStatus ?? 'complete',
    sync_note: spec.syncNote ?? null,
    content_hash: `hash-${spec.id}`,
    first_run_id: SYNC_RUN,
    run_id: SYNC_RUN,
    synced_at: spec.deliveredAt,
  });
  // the n-th time a reference comes among the lines of a kind (the writer numbers them so: migration 040)
  const nth = () => {
    const seen = new Map<string, number>();
    return (key: string) => {
      seen.set(key, (seen.get(key) ?? 0) + 1);
      return seen.get(key)!;
    };
  };
  const payoutNth = nth();
  const refundNth = nth();
  const adjustmentNth = nth();
  for (const [i, p] of payouts.entries()) {
    await insert(connection, 'payouts', {
      occurrence: payoutNth(p.ref),
      disbursement_id: spec.id,
      line_no: i + 1,
      recipient_id: spec.recipient,
      reference: p.ref,
      status: 'paid',
      payment_id: p.paymentId ?? `pay-${p.ref}`,
      currency: p.currency ?? spec.currency,
      amount: p.amount,
      run_id: SYNC_RUN,
    });
  }
  for (const [i, r] of refunds.entries()) {
    await insert(connection, 'refunds', {
      occurrence: refundNth(r.ref),
      disbursement_id: spec.id,
      line_no: i + 1,
      refund_id: r.ref,
      payment_id: r.paymentId ?? `pay-of-${r.ref}`,
      currency: r.currency ?? spec.currency,
      amount: r.amount,
      run_id: SYNC_RUN,
    });
  }
  for (const [i, a] of adjustments.entries()) {
    await insert(connection, 'adjustments', {
      occurrence: adjustmentNth(a.ref),
      disbursement_id: spec.id,
      line_no: i + 1,
      reference: a.ref,
      category: 'service',
      entry_type: a.entryType,
      entity: 'payment',
      entity_reference: a.paymentId ?? `pay-adj-${a.ref}`,
      currency: a.currency ?? spec.currency,
      amount: a.amount,
      run_id: SYNC_RUN,
    });
  }
  const fileLines = [
    ...payouts.map((p) => ({ kind: 'payout', entryType: null, ...p })),
    ...refunds.map((r) => ({ kind: 'refund', entryType: null, ...r })),
    ...adjustments.map((a) => ({ ...a, kind: 'adjustment' })),
  ];
  for (let fileNo = 1; fileNo <= (spec.files ?? 1); fileNo += 1) {
    await insert(connection, 'disbursement_files', {
      disbursement_id: spec.id,
      file_no: fileNo,
      name: `settlement_${spec.id}_${fileNo}.dat`,
      extension: 'dat',
      sha256: `sha-${spec.id}-${fileNo}`,
      size_bytes: 100 + fileLines.length * 40,
      layout: 'dat',
      parse_status: 'parsed',
      line_count: fileLines.length + 2,
      footer_count: fileLines.length,
      footer_total: amount,
      run_id: SYNC_RUN,
      downloaded_at: spec.deliveredAt,
    });
    const lineNth = nth();
    for (const [i, l] of fileLines.entries()) {
      await insert(connection, 'file_lines', {
        occurrence: lineNth(`${l.kind}:${l.ref}`),
        disbursement_id: spec.id,
        file_no: fileNo,
        line_no: i + 2,
        kind: l.kind,
        entry_type: l.entryType,
        reference: l.ref,
        payment_id: l.paymentId ?? null,
        currency: l.currency ?? spec.currency,
        amount: l.amount,
        run_id: SYNC_RUN,
        raw: `D;${l.kind};${l.ref};${l.amount}`,
      });
    }
  }
}

export async function addSyncRun(connection: DuckDBConnection, runId = SYNC_RUN, startedAt = '2026-07-01T02:00:00Z'): Promise<void> {
  await insert(connection, 'runs', { run_id: runId, command: 'sync', started_at: startedAt, status: 'succeeded' });
}

export async function addQuarantine(
  connection: DuckDBConnection,
  row: { disbursementId: string | null; resource: string; lineNo?: number; reason: string; runId?: string; at?: string },
): Promise<void> {
  await insert(connection, 'quarantine', {
    run_id: row.runId ?? SYNC_RUN,
    disbursement_id: row.disbursementId,
    resource: row.resource,
    line_no: row.lineNo ?? null,
    reason: row.reason,
    raw: '{"amount":"12.00"}',
    quarantined_at: row.at ?? '2026-07-01T02:05:00Z',
  });
}

export async function addSample(
  connection: DuckDBConnection,
  row: Partial<Record<string, DuckDBValue>> & { payment_id: string; disbursement_id: string },
): Promise<void> {
  await insert(connection, 'payment_samples', {
    payout_reference: null,
    sampled_run_id: SYNC_RUN,
    sampled_at: '2026-07-01T02:10:00Z',
    http_status: 200,
    payment_status: 'delivered',
    reported_disbursement_id: row.disbursement_id,
    payout_found: true,
    payout_amount: null,
    payout_currency: null,
    ...row,
  } as Record<string, DuckDBValue>);
}

/**
 * The clean dataset: four recipients in JPY (factor 1), KWD (1000, two file layouts), MGA (5, a
 * portal without files) and EUR (100, refunds by netting), payouts, refunds, credit and debit
 * adjustments, matching files and an agreeing payment sample. Every check finds nothing in it.
 */
export const CLEAN: DisbursementSpec[] = [
  {
    id: 'D-JP-1', recipient: 'R-JP-0001', currency: 'JPY', deliveredAt: '2026-05-03T09:00:00Z',
    payouts: [{ ref: 'jp1-p1', amount: 12000 }, { ref: 'jp1-p2', amount: 3500 }],
    refunds: [{ ref: 'jp1-r1', amount: 1000 }],
    adjustments: [{ ref: 'jp1-a1', amount: 200, entryType: 'credit' }, { ref: 'jp1-a2', amount: 150, entryType: 'debit' }],
  },
  {
    id: 'D-JP-2', recipient: 'R-JP-0001', currency: 'JPY', deliveredAt: '2026-06-03T09:00:00Z',
    payouts: [{ ref: 'jp2-p1', amount: 9999 }],
  },
  {
    id: 'D-KW-1', recipient: 'R-KW-0002', currency: 'KWD', deliveredAt: '2026-05-10T09:00:00Z', files: 2,
    payouts: [{ ref: 'kw1-p1', amount: 1234 }, { ref: 'kw1-p2', amount: 5 }],
    adjustments: [{ ref: 'kw1-a1', amount: 1000, entryType: 'debit' }],
  },
  {
    id: 'D-KW-2', recipient: 'R-KW-0002', currency: 'KWD', deliveredAt: '2026-06-10T09:00:00Z', files: 2,
    payouts: [{ ref: 'kw2-p1', amount: 250000 }],
    adjustments: [{ ref: 'kw2-a1', amount: 750, entryType: 'credit' }],
  },
  {
    id: 'D-MG-1', recipient: 'R-MG-0003', currency: 'MGA', deliveredAt: '2026-05-20T09:00:00Z', files: 0,
    payouts: [{ ref: 'mg1-p1', amount: 6 }, { ref: 'mg1-p2', amount: 55 }],
    adjustments: [{ ref: 'mg1-a1', amount: 1, entryType: 'debit' }],
  },
  {
    id: 'D-MG-2', recipient: 'R-MG-0003', currency: 'MGA', deliveredAt: '2026-06-20T09:00:00Z', files: 0,
    payouts: [{ ref: 'mg2-p1', amount: 500 }],
  },
  {
    id: 'D-EU-1', recipient: 'R-EU-0004', currency: 'EUR', deliveredAt: '2026-05-31T22:30:00Z',
    payouts: [{ ref: 'eu1-p1', amount: 123456 }, { ref: 'eu1-p2', amount: 100000 }],
    refunds: [{ ref: 'eu1-r1', amount: 5000 }],
    adjustments: [{ ref: 'eu1-a1', amount: 30000, entryType: 'credit' }, { ref: 'eu1-a2', amount: 1544, entryType: 'debit' }],
  },
  {
    id: 'D-EU-2', recipient: 'R-EU-0004', currency: 'EUR', deliveredAt: '2026-06-30T22:30:00Z',
    payouts: [{ ref: 'eu2-p1', amount: 5000 }],
    refunds: [{ ref: 'eu2-r1', amount: 5000 }],
  },
];

export async function loadClean(connection: DuckDBConnection, specs: DisbursementSpec[] = CLEAN): Promise<void> {
  await addSyncRun(connection);
  for (const spec of specs) await addDisbursement(connection, spec);
  await addSample(connection, {
    payment_id: 'pay-eu1-p1',
    disbursement_id: 'D-EU-1',
    payout_reference: 'eu1-p1',
    payout_amount: 123456,
    payout_currency: 'EUR',
  });
}

/** CLEAN with one disbursement replaced (or appended when the id is new). */
export function withSpec(spec: DisbursementSpec): DisbursementSpec[] {
  const found = CLEAN.some((s) => s.id === spec.id);
  return found ? CLEAN.map((s) => (s.id === spec.id ? spec : s)) : [...CLEAN, spec];
}

export function clean(id: string): DisbursementSpec {
  const spec = CLEAN.find((s) => s.id === id);
  if (!spec) throw new Error(`no clean disbursement ${id}`);
  return structuredClone(spec);
}

/**
 * A check's SELECT as the runner stages it (a generic check's rendered from its template): its rows with the
 * check's id and its header's severity in front (a check that chooses per row keeps its own).
 */
export async function checkSql(id: string): Promise<string> {
  const [check] = await loadChecks(DEFAULT_CHECKS_DIR, [id]);
  const severity = check!.severities.length === 1 ? `'${check!.severities[0]}' AS severity, r.*` : 'r.*';
  return `SELECT '${id}' AS check_id, ${severity} FROM (${check!.sql}) AS r`;
}

export type Row = Record<string, unknown>;

/** Run one check as the runner would (a generic one rendered) and return its rows as plain JS objects. */
export async function runCheck(connection: DuckDBConnection, id: string): Promise<Row[]> {
  const reader = await connection.runAndReadAll(await checkSql(id));
  return reader.getRowObjectsJS() as Row[];
}

export async function rows(connection: DuckDBConnection, sql: string, values?: DuckDBValue[]): Promise<Row[]> {
  return (await connection.runAndReadAll(sql, values)).getRowObjectsJS() as Row[];
}
