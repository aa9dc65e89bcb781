// The stores of year_checks_ratio (stages/year-checks.ts): months of history in the sandbox's proportions
// (per disbursement 100 payouts, 4 refunds, 9 adjustments, a parsed settlement file listing every line
// again), built in SQL; and a night's writes as the sync makes them, through recon's own StoreWriter. The
// disbursement of global index i is the same in every store (ids, lines, delivery), so a store of the last
// month holds exactly the last month of a year's store, and a night adds the same rows to both.
import type { DuckDBConnection } from '@duckdb/node-api';
import { contentHash, type DisbursementBundle } from '../src/store/bundle.js';
import { StoreWriter, loadStoredState } from '../src/store/writer.js';
import { saveSamples, type PaymentSample } from '../src/store/samples.js';
import { startRun } from '../src/store/runs.js';

const CURRENCIES = ['EUR', 'USD', 'JPY', 'KWD', 'MGA', 'VND'];
export const PAYOUTS = 100;
const REFUNDS = 4;
const ADJUSTMENTS = 9;
/** Where the history starts; a month is 30 days here. */
const START_MS = Date.parse('2025-11-01T00:00:00Z');
const MONTH_MS = 30 * 86_400_000;

/**
 * Ids as the service might send them: no order to lean on (the interface promises no format), so no zone
 * map of the store prunes by them. The index times an odd number, modulo 2^32 (one id per index, scattered):
 * the same in SQL (BIGINT) and here (BigInt).
 */
const SCATTER = 2_654_435_761n;
const scattered = (prefix: string, n: number) => `${prefix}_${((BigInt(n) * SCATTER) % 4_294_967_296n).toString(16).padStart(8, '0')}`;
export const dsbId = (i: number): string => scattered('dsb', i);
const paymentId = (j: number) => scattered('pay', j);
const refundId = (r: number) => scattered('ref', r);
const adjustmentRef = (a: number) => scattered('adj', a);
const payoutAmount = (j: number) => 1000 + ((j * 7919) % 99_000);
const refundAmount = (r: number) => 100 + ((r * 104_729) % 900);
const adjustmentAmount = (a: number) => 10 + ((a * 7907) % 490);
const deliveredMs = (i: number, perMonth: number) => START_MS + Math.floor((i * MONTH_MS) / perMonth / 1000) * 1000;

/**
 * Disbursements [from, to) (perMonth a month) with their lines, files and file lines, written under runId;
 * then what a store carries: 1 % with an amount one subunit off, 1 ‰ with a quarantined record, 0.5 %
 * restated once before. No raw payloads (no check reads them).
 */
export async function buildYearInSql(c: DuckDBConnection, from: number, to: number, perMonth: number, runId: string): Promise<void> {
  const ccy = (expr: string) => `['EUR','USD','JPY','KWD','MGA','VND'][CAST((${expr}) % 6 AS INTEGER) + 1]`;
  const id = (prefix: string, expr: string) => `'${prefix}_' || lpad(lower(to_hex((CAST(${expr} AS BIGINT) * ${SCATTER}) % 4294967296)), 8, '0')`;
  await c.run(`INSERT INTO runs (run_id, command, started_at, finished_at, status) VALUES ('${runId}', 'sync', now(), now(), 'succeeded')`);
  await c.run(`CREATE OR REPLACE TEMP TABLE _ids AS SELECT i, ${id('dsb', 'i')} AS id FROM range(${from}, ${to}) AS t(i)`);
  await c.run(`INSERT INTO payouts SELECT ${id('dsb', `j // ${PAYOUTS}`)}, CAST(j % ${PAYOUTS} + 1 AS INTEGER), 'rcp_' || CAST((j // ${PAYOUTS}) % 6 AS VARCHAR),
      'po_' || CAST(j AS VARCHAR), 'paid', ${id('pay', 'j')}, ${ccy(`j // ${PAYOUTS}`)}, 1000 + (j * 7919) % 99000, '${runId}', NULL, 1
    FROM range(${from * PAYOUTS}, ${to * PAYOUTS}) AS t(j)`);
  await c.run(`INSERT INTO refunds SELECT ${id('dsb', `r // ${REFUNDS}`)}, CAST(r % ${REFUNDS} + 1 AS INTEGER), ${id('ref', 'r')},
      ${id('pay', `(r // ${REFUNDS}) * ${PAYOUTS} + r % ${REFUNDS}`)}, NULL, ${ccy(`r // ${REFUNDS}`)}, 100 + (r * 104729) % 900, '${runId}', NULL, 1
    FROM range(${from * REFUNDS}, ${to * REFUNDS}) AS t(r)`);
  await c.run(`INSERT INTO adjustments SELECT ${id('dsb', `a // ${ADJUSTMENTS}`)}, CAST(a % ${ADJUSTMENTS} + 1 AS INTEGER), ${id('adj', 'a')}, 'fee',
      CASE WHEN a % 3 = 0 THEN 'credit' ELSE 'debit' END, NULL, NULL, ${ccy(`a // ${ADJUSTMENTS}`)}, 10 + (a * 7907) % 490, '${runId}', NULL, 1
    FROM range(${from * ADJUSTMENTS}, ${to * ADJUSTMENTS}) AS t(a)`);
  // the file lists the payouts, then the refunds, then the adjustments, after a header line
  await c.run(`INSERT INTO file_lines
    SELECT disbursement_id, 1, line_no + 1, 'payout', NULL, reference, payment_id, currency, amount, '${runId}', NULL, 1 FROM payouts WHERE run_id = '${runId}'
    UNION ALL SELECT disbursement_id, 1, ${PAYOUTS} + line_no + 1, 'refund', NULL, refund_id, payment_id, currency, amount, '${runId}', NULL, 1
      FROM refunds WHERE run_id = '${runId}'
    UNION ALL SELECT disbursement_id, 1, ${PAYOUTS + REFUNDS} + line_no + 1, 'adjustment', entry_type, reference, NULL, currency, amount, '${runId}', NULL, 1
      FROM adjustments WHERE run_id = '${runId}'`);
  await c.run(`INSERT INTO disbursements
    SELECT d.id, 'rcp_' || CAST(d.i % 6 AS VARCHAR), 'delivered', to_timestamp(${START_MS / 1000} + d.i * ${MONTH_MS} // ${perMonth} // 1000),
      ${PAYOUTS}, ${REFUNDS}, ${ADJUSTMENTS}, p.s - r.s + a.credit - a.debit, ${ccy('d.i')}, '****' || CAST(1000 + d.i % 6 AS VARCHAR),
      'complete', NULL, 1, md5(d.id), '${runId}', '${runId}', now(), NULL
    FROM _ids AS d
    JOIN (SELECT disbursement_id, sum(amount) AS s FROM payouts WHERE run_id = '${runId}' GROUP BY ALL) AS p ON p.disbursement_id = d.id
    JOIN (SELECT disbursement_id, sum(amount) AS s FROM refunds WHERE run_id = '${runId}' GROUP BY ALL) AS r ON r.disbursement_id = d.id
    JOIN (SELECT disbursement_id, sum(amount) FILTER (WHERE entry_type = 'credit') AS credit, sum(amount) FILTER (WHERE entry_type = 'debit') AS debit
          FROM adjustments WHERE run_id = '${runId}' GROUP BY ALL) AS a ON a.disbursement_id = d.id`);
  await c.run('DROP TABLE _ids');
  await c.run(`INSERT INTO disbursement_files
    SELECT disbursement_id, 1, 'settlement_' || disbursement_id || '.csv', 'csv', md5(disbursement_id), 4000, 'csv-settlement', 'parsed', NULL,
      ${PAYOUTS + REFUNDS + ADJUSTMENTS}, ${PAYOUTS + REFUNDS + ADJUSTMENTS}, amount, '${runId}', now()
    FROM disbursements WHERE run_id = '${runId}'`);
  await c.run(`UPDATE disbursements SET amount = amount + 1 WHERE run_id = '${runId}' AND hash(disbursement_id) % 100 = 0`);
  await c.run(`INSERT INTO quarantine SELECT '${runId}', disbursement_id, 'payout', 1, 'amount should be a number but is "12.5"', '{"amount":"12.5"}', now()
    FROM disbursements WHERE run_id = '${runId}' AND hash(disbursement_id) % 1000 = 7`);
  await c.run(`UPDATE disbursements SET sync_status = 'invalid' WHERE run_id = '${runId}' AND hash(disbursement_id) % 1000 = 7`);
  await c.run(`INSERT INTO disbursement_history (disbursement_id, version, recipient_id, delivered_at, number_of_payments, number_of_refunds,
      number_of_adjustments, amount, currency, bank_account_number, sync_status, content_hash, run_id, superseded_at, superseded_by_run_id)
    SELECT disbursement_id, 1, recipient_id, delivered_at, number_of_payments, number_of_refunds, number_of_adjustments, amount - 5, currency,
      bank_account_number, 'complete', 'old-' || content_hash, '${runId}', now(), '${runId}'
    FROM disbursements WHERE run_id = '${runId}' AND hash(disbursement_id) % 200 = 3`);
  await c.run(`UPDATE disbursements SET version = 2 WHERE run_id = '${runId}' AND hash(disbursement_id) % 200 = 3`);
}

/** Disbursement i as the service would send it, with its file; `change` alters one payout (a restatement). */
function bundleOf(i: number, perMonth: number, change = 0): DisbursementBundle {
  const currency = CURRENCIES[i % 6]!;
  const recipient = `rcp_${i % 6}`;
  const line = <T>(lineNo: number, value: T) => ({ lineNo, value, raw: JSON.stringify(value) });
  const payouts = Array.from({ length: PAYOUTS }, (_, n) => {
    const j = i * PAYOUTS + n;
    return line(n + 1, { recipient_id: recipient, reference: `po_${j}`, status: 'paid', payment_id: paymentId(j), currency,
      amount: payoutAmount(j) + (n === 0 ? change : 0) });
  });
  const refunds = Array.from({ length: REFUNDS }, (_, m) => {
    const r = i * REFUNDS + m;
    return line(m + 1, { refund_id: refundId(r), payment: { id: paymentId(i * PAYOUTS + m), external_reference: null }, amount: refundAmount(r), currency });
  });
  const adjustments = Array.from({ length: ADJUSTMENTS }, (_, m) => {
    const a = i * ADJUSTMENTS + m;
    return line(m + 1, { reference: adjustmentRef(a), category: 'fee', amount: adjustmentAmount(a), currency, entry_type: a % 3 === 0 ? 'credit' : 'debit',
      entity: null, entity_reference: null });
  });
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  const amount = sum(payouts.map((p) => p.value.amount)) - sum(refunds.map((r) => r.value.amount))
    + sum(adjustments.map((a) => (a.value.entry_type === 'credit' ? a.value.amount : -a.value.amount)));
  const fileLines = [
    ...payouts.map((p) => ({ lineNo: p.lineNo + 1, kind: 'payout' as const, entryType: null, reference: p.value.reference, paymentId: p.value.payment_id,
      currency, amount: BigInt(p.value.amount), raw: `P,${p.value.reference}` })),
    ...refunds.map((r) => ({ lineNo: PAYOUTS + r.lineNo + 1, kind: 'refund' as const, entryType: null, reference: r.value.refund_id,
      paymentId: r.value.payment.id, currency, amount: BigInt(r.value.amount), raw: `R,${r.value.refund_id}` })),
    ...adjustments.map((a) => ({ lineNo: PAYOUTS + REFUNDS + a.lineNo + 1, kind: 'adjustment' as const, entryType: a.value.entry_type as 'credit' | 'debit',
      reference: a.value.reference, paymentId: null, currency, amount: BigInt(a.value.amount), raw: `A,${a.value.reference}` })),
  ];
  const b = {
    record: { disbursement_id: dsbId(i), recipient_id: recipient, status: 'delivered', delivered_at: new Date(deliveredMs(i, perMonth)).toISOString(),
      number_of_payments: PAYOUTS, number_of_refunds: REFUNDS, number_of_adjustments: ADJUSTMENTS, amount: amount + (i % 100 === 0 ? 1 : 0), currency,
      bank_account_number: `****${1000 + (i % 6)}` },
    payouts, refunds, adjustments,
    files: [{ fileNo: 1, name: `settlement_${dsbId(i)}.csv`, extension: 'csv', sha256: null, sizeBytes: 4000, layout: 'csv-settlement',
      parseStatus: 'parsed' as const, parseError: null, lines: fileLines, footerCount: BigInt(fileLines.length), footerTotal: BigInt(amount), problems: [] }],
    quarantine: [], syncStatus: 'complete' as const, syncNote: null,
  } as unknown as Omit<DisbursementBundle, 'contentHash' | 'raw'>;
  return { ...b, raw: JSON.stringify(b.record), contentHash: contentHash(b) };
}

export interface Night {
  /** The night's number, from 1. */
  k: number;
  runId: string;
  /** Disbursements a month (the history's pace); the night delivers a thirtieth of it. */
  perMonth: number;
  /** The first index after the history: the night's new disbursements follow it. */
  end: number;
}

/**
 * Night k, as a sync writes it: a thirtieth of a month's disbursements delivered (1 % off by a subunit, two
 * payouts settling a payment the last month already paid), three of the last month's disbursements restated
 * (one payout changed), and 100 of its payouts sampled (one disagreeing). The same rows in every store that
 * holds the last month. Returns what it wrote.
 */
export async function writeNight(c: DuckDBConnection, n: Night): Promise<{ written: number; samples: number }> {
  const perNight = Math.round(n.perMonth / 30);
  const first = n.end + (n.k - 1) * perNight;
  const lastMonth = n.end - n.perMonth;
  const pick = (salt: number, count: number) => Array.from({ length: count }, (_, x) => lastMonth + ((n.k * 7919 + salt + x * 104_729) % n.perMonth));
  await startRun(c, { runId: n.runId, command: 'run', serviceUrl: null, options: {}, startedAt: new Date(START_MS + 13 * MONTH_MS + n.k * 86_400_000) });
  const writer = new StoreWriter(c, n.runId, await loadStoredState(c));
  const again = pick(11, 2);
  for (let i = first; i < first + perNight; i += 1) {
    const b = bundleOf(i, n.perMonth);
    const twice = i - first < again.length ? again[i - first]! : null;
    if (twice !== null) {
      // a payment the last month settled, settled again: its payout's payment_id, a fresh reference
      b.payouts[1]!.value.payment_id = paymentId(twice * PAYOUTS + 7);
      b.contentHash = contentHash(b);
    }
    await writer.add(b);
  }
  for (const i of pick(23, 3)) await writer.add(bundleOf(i, n.perMonth, n.k));
  await writer.flush();
  const samples: PaymentSample[] = pick(31, 100).map((i, x) => {
    const j = i * PAYOUTS + ((n.k + x) % PAYOUTS);
    return { paymentId: paymentId(j), disbursementId: dsbId(i), payoutReference: `po_${j}`, httpStatus: 200, paymentStatus: 'delivered',
      reportedDisbursementId: dsbId(i), payoutFound: true, payoutAmount: BigInt(payoutAmount(j) + (x === 0 ? 5 : 0)), payoutCurrency: CURRENCIES[i % 6]!, raw: null };
  });
  await saveSamples(c, n.runId, samples);
  return { written: writer.counts.disbursements, samples: samples.length };
}
