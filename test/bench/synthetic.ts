// Synthetic inputs of the stage benchmarks: bundles as extract hands them to load, finding rows as the
// workbook writer takes them, and a consistent store of N disbursements × M payouts built in SQL.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Disbursement, Payout } from '../../src/api/schemas.js';
import type { DisbursementBundle, Line } from '../../src/extract/bundle.js';
import type { FindingRow } from '../../src/report/types.js';

const CURRENCIES = ['EUR', 'USD', 'JPY', 'KWD', 'MGA', 'VND'];
const DAY = 86_400_000;
const END = Date.parse('2026-10-31T22:00:00Z');

export const disbursementId = (i: number): string => `dsb_${i.toString(36).padStart(8, '0')}`;

function payout(d: number, n: number): { value: Payout; raw: string } {
  const value = {
    recipient_id: `rcp_${d % 6}`,
    reference: `po_${d}_${n}`,
    status: 'paid',
    payment_id: `pay_${(d * 1000 + n).toString(36)}`,
    currency: CURRENCIES[d % 6]!,
    amount: 1000 + ((d * 7919 + n * 104_729) % 99_000),
  };
  // field order and an unknown field, as the service sends them
  return { value, raw: JSON.stringify({ status: value.status, amount: value.amount, payment_id: value.payment_id, currency: value.currency,
    reference: value.reference, recipient_id: value.recipient_id, created_at: '2026-10-01T10:00:00Z' }) };
}

/** One disbursement with `payouts` payouts (no refunds, adjustments or files), its amount consistent. */
export function bundle(d: number, payouts: number): DisbursementBundle {
  const lines: Line<Payout>[] = [];
  let sum = 0;
  for (let n = 1; n <= payouts; n += 1) {
    const p = payout(d, n);
    sum += p.value.amount;
    lines.push({ lineNo: n, value: p.value, raw: p.raw });
  }
  const record: Disbursement = {
    disbursement_id: disbursementId(d), recipient_id: `rcp_${d % 6}`, status: 'delivered',
    delivered_at: new Date(END - d * 600_000).toISOString(), number_of_payments: payouts, number_of_refunds: 0,
    number_of_adjustments: 0, amount: sum, currency: CURRENCIES[d % 6]!, bank_account_number: `****${String(1000 + (d % 6))}`,
  };
  return { record, raw: JSON.stringify(record), payouts: lines, refunds: [], adjustments: [], files: [], quarantine: [],
    syncStatus: 'complete', syncNote: null, contentHash: `synthetic-${d}` };
}

/** The payouts table's row for each payout line of `b`, as NDJSON lines (raw kept as a JSON string). */
export function payoutRowsNdjson(b: DisbursementBundle, runId: string): string {
  let out = '';
  for (const l of b.payouts) {
    out += `${JSON.stringify({ disbursement_id: b.record.disbursement_id, line_no: l.lineNo, recipient_id: l.value.recipient_id,
      reference: l.value.reference, status: l.value.status, payment_id: l.value.payment_id, currency: l.value.currency,
      amount: l.value.amount, run_id: runId, raw: l.raw })}\n`;
  }
  return out;
}

const CHECKS = ['total_identity', 'count_payments', 'duplicate_payout', 'currency_mismatch', 'file_vs_api', 'missing_files'];

/** A finding of every kind of cell: money in several currencies, nulls, long details, dates. */
export function finding(i: number): FindingRow {
  const currency = i % 11 === 0 ? null : CURRENCIES[i % 6]!;
  const amounts = i % 3 !== 2;
  return {
    key: (i * 2654435761 >>> 0).toString(16).padStart(16, '0'),
    status: (['new', 'open', 'acknowledged'] as const)[i % 3]!,
    ageDays: i % 40,
    checkId: CHECKS[i % CHECKS.length]!,
    severity: i % 5 === 0 ? 'warning' : 'error',
    recipientId: `rcp_${i % 6}`,
    disbursementId: disbursementId(Math.floor(i / 3)),
    subject: `pay_${i.toString(36)}`,
    currency,
    expected: amounts ? BigInt(100_000 + i) : null,
    actual: amounts ? BigInt(100_000 + i + (i % 7)) : null,
    difference: amounts ? BigInt(i % 7) : null,
    detail: `payout payment_id pay_${i.toString(36)} (line ${i % 100}, ${(i % 977) + 1}.00 EUR) was already settled in disbursement ${disbursementId(i)}`,
    firstSeen: new Date(END - (i % 40) * DAY),
    ackNote: i % 3 === 2 ? 'checked with the recipient' : null,
  };
}

/**
 * `disbursements` × `payoutsPer` payouts straight in SQL (the checks benchmark's store), consistent:
 * amounts add up, counts match, payment_ids are unique, so checks over it find nothing and the time is
 * the cost of looking. No files, refunds or adjustments: the bare scans it is compared with read payouts.
 */
export async function buildStoreInSql(c: DuckDBConnection, disbursements: number, payoutsPer: number, runId: string): Promise<void> {
  const n = disbursements * payoutsPer;
  await c.run(`INSERT INTO runs (run_id, command, started_at, finished_at, status) VALUES ('${runId}', 'sync', now(), now(), 'succeeded')`);
  await c.run(`
    INSERT INTO payouts
    SELECT 'dsb_' || lpad(CAST(i // ${payoutsPer} AS VARCHAR), 8, '0'), CAST(i % ${payoutsPer} + 1 AS INTEGER),
           'rcp_' || CAST((i // ${payoutsPer}) % 6 AS VARCHAR), 'po_' || CAST(i AS VARCHAR), 'paid',
           'pay_' || CAST(i AS VARCHAR), ['EUR','USD','JPY','KWD','MGA','VND'][CAST((i // ${payoutsPer}) % 6 AS INTEGER) + 1],
           1000 + (i * 7919) % 99000, '${runId}', NULL
    FROM range(${n}) AS t(i)`);
  await c.run(`
    INSERT INTO disbursements
    SELECT disbursement_id, any_value(recipient_id), 'delivered',
           TIMESTAMPTZ '2026-10-31 22:00:00+00' - to_minutes(CAST(row_number() OVER (ORDER BY disbursement_id) * 10 AS BIGINT)),
           count(*), 0, 0, sum(amount), any_value(currency), '****1000', 'complete', NULL, 1, md5(disbursement_id),
           '${runId}', '${runId}', now(), NULL
    FROM payouts GROUP BY disbursement_id`);
}
