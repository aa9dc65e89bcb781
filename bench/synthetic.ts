// Synthetic inputs of the stage benchmarks: bundles as extract hands them to load, finding rows as the
// workbook writer takes them, and a consistent store of N disbursements × M payouts built in SQL.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Disbursement, Payout } from '../src/api/schemas.js';
import type { DisbursementBundle, Line } from '../src/store/bundle.js';
import type { FileResult } from '../src/sync/files.js';
import type { FileLine } from '../src/sync/parse-file.js';
import type { FindingRow } from '../src/report/types.js';

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

/**
 * One disbursement with `payouts` payouts and, with `withFile`, the settlement file that lists them again
 * (a line per payout and a footer), its amount consistent. No refunds or adjustments.
 */
export function bundle(d: number, payouts: number, withFile = false): DisbursementBundle {
  const lines: Line<Payout>[] = [];
  const fileLines: FileLine[] = [];
  let sum = 0;
  for (let n = 1; n <= payouts; n += 1) {
    const p = payout(d, n);
    sum += p.value.amount;
    lines.push({ lineNo: n, value: p.value, raw: p.raw });
    if (withFile) {
      fileLines.push({ lineNo: n + 1, kind: 'payout', entryType: null, reference: p.value.reference, paymentId: p.value.payment_id,
        currency: p.value.currency, amount: BigInt(p.value.amount), raw: `PAYOUT,${p.value.reference},${p.value.payment_id},${p.value.currency},${p.value.amount}` });
    }
  }
  const files: FileResult[] = withFile ? [{
    fileNo: 1, name: `settlement_${disbursementId(d)}.csv`, extension: 'csv', sha256: d.toString(16).padStart(64, '0'), sizeBytes: 40 * payouts,
    layout: 'csv-settlement', parseStatus: 'parsed', parseError: null, lines: fileLines, footerCount: BigInt(payouts), footerTotal: BigInt(sum), problems: [],
  }] : [];
  const record: Disbursement = {
    disbursement_id: disbursementId(d), recipient_id: `rcp_${d % 6}`, status: 'delivered',
    delivered_at: new Date(END - d * 600_000).toISOString(), number_of_payments: payouts, number_of_refunds: 0,
    number_of_adjustments: 0, amount: sum, currency: CURRENCIES[d % 6]!, bank_account_number: `****${String(1000 + (d % 6))}`,
  };
  return { record, raw: JSON.stringify(record), payouts: lines, refunds: [], adjustments: [], files, quarantine: [],
    syncStatus: 'complete', syncNote: null, contentHash: `synthetic-${d}` };
}

/**
 * The rows recon's writer stores for `b`, as NDJSON per table, for DuckDB's own reader: the disbursement,
 * its payouts (raw embedded as the JSON object it is, so the reader stores it as JSON without a second
 * parse), its file and the file's lines.
 */
export function rowsNdjson(b: DisbursementBundle, runId: string): { disbursements: string; payouts: string; files: string; fileLines: string } {
  const r = b.record;
  const id = r.disbursement_id;
  const fields = JSON.stringify({ disbursement_id: id, recipient_id: r.recipient_id, status: r.status, delivered_at: r.delivered_at,
    number_of_payments: r.number_of_payments, number_of_refunds: r.number_of_refunds, number_of_adjustments: r.number_of_adjustments, amount: r.amount,
    currency: r.currency, bank_account_number: r.bank_account_number, sync_status: b.syncStatus, sync_note: b.syncNote, version: 1,
    content_hash: b.contentHash, first_run_id: runId, run_id: runId });
  const disbursements = `${fields.slice(0, -1)},"raw":${b.raw}}\n`;
  let payouts = '';
  for (const l of b.payouts) {
    payouts += `{"disbursement_id":${JSON.stringify(id)},"line_no":${l.lineNo},"recipient_id":${JSON.stringify(l.value.recipient_id)},`
      + `"reference":${JSON.stringify(l.value.reference)},"status":${JSON.stringify(l.value.status)},"payment_id":${JSON.stringify(l.value.payment_id)},`
      + `"currency":${JSON.stringify(l.value.currency)},"amount":${l.value.amount},"run_id":${JSON.stringify(runId)},"raw":${l.raw},"occurrence":1}\n`;
  }
  let files = '';
  let fileLines = '';
  for (const f of b.files) {
    files += `${JSON.stringify({ disbursement_id: id, file_no: f.fileNo, name: f.name, extension: f.extension, sha256: f.sha256, size_bytes: f.sizeBytes,
      layout: f.layout, parse_status: f.parseStatus, parse_error: f.parseError, line_count: f.lines.length, footer_count: Number(f.footerCount),
      footer_total: Number(f.footerTotal), run_id: runId })}\n`;
    for (const l of f.lines) {
      fileLines += `${JSON.stringify({ disbursement_id: id, file_no: f.fileNo, line_no: l.lineNo, kind: l.kind, entry_type: l.entryType, reference: l.reference,
        payment_id: l.paymentId, currency: l.currency, amount: Number(l.amount), run_id: runId, raw: l.raw, occurrence: 1 })}\n`;
    }
  }
  return { disbursements, payouts, files, fileLines };
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
           1000 + (i * 7919) % 99000, '${runId}', NULL, 1
    FROM range(${n}) AS t(i)`);
  await c.run(`
    INSERT INTO disbursements
    SELECT disbursement_id, any_value(recipient_id), 'delivered',
           TIMESTAMPTZ '2026-10-31 22:00:00+00' - to_minutes(CAST(row_number() OVER (ORDER BY disbursement_id) * 10 AS BIGINT)),
           count(*), 0, 0, sum(amount), any_value(currency), '****1000', 'complete', NULL, 1, md5(disbursement_id),
           '${runId}', '${runId}', now(), NULL
    FROM payouts GROUP BY disbursement_id`);
}

/**
 * A store in the sandbox's proportions, built in SQL (the realistic checks benchmark): per disbursement
 * `payoutsPer` payouts, 4 % as many refunds and 9 % as many adjustments (credits and debits), one parsed
 * settlement file listing every line again with its footer, the amount consistent; then 1 % of the
 * disbursements with an amount one subunit off and 1 ‰ with a quarantined record (findings to carry),
 * and 0.5 % restated once (history). Run the checks once before measuring: the findings are then open.
 */
export async function buildRealisticStoreInSql(c: DuckDBConnection, disbursements: number, payoutsPer: number, runId: string): Promise<void> {
  const refundsPer = Math.max(1, Math.round(payoutsPer * 0.04));
  const adjustmentsPer = Math.max(2, Math.round(payoutsPer * 0.09));
  const ccy = (expr: string) => `['EUR','USD','JPY','KWD','MGA','VND'][CAST((${expr}) % 6 AS INTEGER) + 1]`;
  const dsb = (expr: string) => `'dsb_' || lpad(CAST(${expr} AS VARCHAR), 8, '0')`;
  await c.run(`INSERT INTO runs (run_id, command, started_at, finished_at, status) VALUES ('${runId}', 'sync', now(), now(), 'succeeded')`);
  await c.run(`
    INSERT INTO payouts
    SELECT ${dsb(`i // ${payoutsPer}`)}, CAST(i % ${payoutsPer} + 1 AS INTEGER), 'rcp_' || CAST((i // ${payoutsPer}) % 6 AS VARCHAR),
           'po_' || CAST(i AS VARCHAR), 'paid', 'pay_' || CAST(i AS VARCHAR), ${ccy(`i // ${payoutsPer}`)},
           1000 + (i * 7919) % 99000, '${runId}', '{"amount":' || CAST(1000 + (i * 7919) % 99000 AS VARCHAR) || '}', 1
    FROM range(${disbursements * payoutsPer}) AS t(i)`);
  await c.run(`
    INSERT INTO refunds
    SELECT ${dsb(`i // ${refundsPer}`)}, CAST(i % ${refundsPer} + 1 AS INTEGER), 'ref_' || CAST(i AS VARCHAR),
           'pay_' || CAST((i // ${refundsPer}) * ${payoutsPer} + i % ${refundsPer} AS VARCHAR), NULL, ${ccy(`i // ${refundsPer}`)},
           100 + (i * 104729) % 900, '${runId}', '{}', 1
    FROM range(${disbursements * refundsPer}) AS t(i)`);
  await c.run(`
    INSERT INTO adjustments
    SELECT ${dsb(`i // ${adjustmentsPer}`)}, CAST(i % ${adjustmentsPer} + 1 AS INTEGER), 'adj_' || CAST(i AS VARCHAR), 'fee',
           CASE WHEN i % 3 = 0 THEN 'credit' ELSE 'debit' END, NULL, NULL, ${ccy(`i // ${adjustmentsPer}`)},
           10 + (i * 7907) % 490, '${runId}', '{}', 1
    FROM range(${disbursements * adjustmentsPer}) AS t(i)`);
  await c.run(`
    INSERT INTO file_lines
    SELECT disbursement_id, 1, CAST(row_number() OVER (PARTITION BY disbursement_id ORDER BY kind, line_no) + 1 AS INTEGER), kind, entry_type,
           reference, payment_id, currency, amount, '${runId}', kind || ',' || reference, 1
    FROM (SELECT disbursement_id, line_no, 'payout' AS kind, NULL AS entry_type, reference, payment_id, currency, amount FROM payouts
          UNION ALL SELECT disbursement_id, line_no, 'refund', NULL, refund_id, payment_id, currency, amount FROM refunds
          UNION ALL SELECT disbursement_id, line_no, 'adjustment', entry_type, reference, NULL, currency, amount FROM adjustments)`);
  await c.run(`
    INSERT INTO disbursements
    SELECT p.disbursement_id, p.recipient_id, 'delivered',
           TIMESTAMPTZ '2026-10-31 22:00:00+00' - to_minutes(CAST(row_number() OVER (ORDER BY p.disbursement_id) * 10 AS BIGINT)),
           p.n, r.n, a.n, p.s - r.s + a.credit - a.debit, p.currency, '****1000', 'complete', NULL, 1, md5(p.disbursement_id),
           '${runId}', '${runId}', now(), NULL
    FROM (SELECT disbursement_id, any_value(recipient_id) AS recipient_id, any_value(currency) AS currency, count(*) AS n, sum(amount) AS s FROM payouts GROUP BY ALL) p
    JOIN (SELECT disbursement_id, count(*) AS n, sum(amount) AS s FROM refunds GROUP BY ALL) r USING (disbursement_id)
    JOIN (SELECT disbursement_id, count(*) AS n, sum(amount) FILTER (WHERE entry_type = 'credit') AS credit,
                 sum(amount) FILTER (WHERE entry_type = 'debit') AS debit FROM adjustments GROUP BY ALL) a USING (disbursement_id)`);
  await c.run(`
    INSERT INTO disbursement_files
    SELECT d.disbursement_id, 1, 'settlement_' || d.disbursement_id || '.csv', 'csv', md5(d.disbursement_id), 100 * count(*), 'csv-settlement',
           'parsed', NULL, count(*), count(*), sum(CASE WHEN l.kind = 'payout' OR l.entry_type = 'credit' THEN l.amount ELSE -l.amount END),
           '${runId}', now()
    FROM disbursements d JOIN file_lines l USING (disbursement_id) GROUP BY d.disbursement_id`);
  // what a real night carries: findings, quarantined records, restatements
  await c.run(`UPDATE disbursements SET amount = amount + 1 WHERE hash(disbursement_id) % 100 = 0`);
  await c.run(`
    INSERT INTO quarantine
    SELECT '${runId}', disbursement_id, 'payout', 1, 'amount should be a number but is "12.5"', '{"amount":"12.5"}', now()
    FROM disbursements WHERE hash(disbursement_id) % 1000 = 7`);
  await c.run(`UPDATE disbursements SET sync_status = 'invalid' WHERE hash(disbursement_id) % 1000 = 7`);
  await c.run(`
    INSERT INTO disbursement_history (disbursement_id, version, recipient_id, delivered_at, number_of_payments, number_of_refunds,
      number_of_adjustments, amount, currency, bank_account_number, sync_status, content_hash, run_id, superseded_at, superseded_by_run_id)
    SELECT disbursement_id, 1, recipient_id, delivered_at, number_of_payments, number_of_refunds, number_of_adjustments, amount - 5, currency,
      bank_account_number, 'complete', 'old-' || content_hash, '${runId}', now(), '${runId}'
    FROM disbursements WHERE hash(disbursement_id) % 200 = 3`);
  await c.run(`UPDATE disbursements SET version = 2 WHERE hash(disbursement_id) % 200 = 3`);
}

/**
 * A year of disbursements in the store (the excel-limit stage, a store past a sheet's rows): `disbursements` delivered over the 365 days to
 * 2026-10-31, 30 s apart, each with `payoutsPer` payouts, one adjustment (credits and debits in turn), a
 * refund on every fourth, and a parsed settlement file listing every line again; the amount adds up but
 * for one disbursement in twenty, a subunit over its lines and its file (a total_identity and a file_vs_api finding each). Few lines a disbursement:
 * what grows with the disbursements (the per-disbursement views, the lists of the workbooks, the findings)
 * is the year's; what grows with the lines is the checks stage's (10M payouts with `make bench-large`).
 */
export async function buildPastSheetStoreInSql(c: DuckDBConnection, disbursements: number, payoutsPer: number, runId: string): Promise<void> {
  const dsb = (expr: string) => `'dsb_' || lpad(CAST(${expr} AS VARCHAR), 8, '0')`;
  const ccy = (expr: string) => `['EUR','USD','JPY','KWD','MGA','VND'][CAST((${expr}) % 6 AS INTEGER) + 1]`;
  const p = payoutsPer;
  await c.run(`INSERT INTO runs (run_id, command, started_at, finished_at, status) VALUES ('${runId}', 'sync', now(), now(), 'succeeded')`);
  await c.run(`INSERT INTO payouts SELECT ${dsb(`i // ${p}`)}, CAST(i % ${p} + 1 AS INTEGER), 'rcp_' || CAST((i // ${p}) % 97 AS VARCHAR),
    'po_' || CAST(i AS VARCHAR), 'paid', 'pay_' || CAST(i AS VARCHAR), ${ccy(`i // ${p}`)}, 1000 + (i * 7919) % 99000, '${runId}', NULL, 1
    FROM range(${disbursements * p}) AS t(i)`);
  await c.run(`INSERT INTO refunds SELECT ${dsb('i * 4')}, 1, 'ref_' || CAST(i AS VARCHAR), 'pay_' || CAST(i * 4 * ${p} AS VARCHAR), NULL,
    ${ccy('i * 4')}, 100 + (i * 104729) % 900, '${runId}', NULL, 1 FROM range(${Math.ceil(disbursements / 4)}) AS t(i)`);
  await c.run(`INSERT INTO adjustments SELECT ${dsb('i')}, 1, 'adj_' || CAST(i AS VARCHAR), 'fee', CASE WHEN i % 2 = 0 THEN 'credit' ELSE 'debit' END,
    NULL, NULL, ${ccy('i')}, 10 + (i * 7907) % 490, '${runId}', NULL, 1 FROM range(${disbursements}) AS t(i)`);
  await c.run(`INSERT INTO file_lines
    SELECT disbursement_id, 1, line_no + 1, 'payout', NULL, reference, payment_id, currency, amount, '${runId}', 'payout,' || reference, 1 FROM payouts
    UNION ALL SELECT disbursement_id, 1, ${p + 2}, 'refund', NULL, refund_id, payment_id, currency, amount, '${runId}', 'refund,' || refund_id, 1 FROM refunds
    UNION ALL SELECT disbursement_id, 1, ${p + 3}, 'adjustment', entry_type, reference, NULL, currency, amount, '${runId}', 'adjustment,' || reference, 1
    FROM adjustments`);
  await c.run(`CREATE TEMP TABLE year_totals AS
    SELECT p.disbursement_id, CAST(substr(p.disbursement_id, 5) AS BIGINT) AS i, p.n AS payouts_n, COALESCE(r.n, 0) AS refunds_n,
      p.s - COALESCE(r.s, 0) + a.credit - a.debit AS net, p.n + COALESCE(r.n, 0) + 1 AS lines
    FROM (SELECT disbursement_id, count(*) AS n, sum(amount) AS s FROM payouts GROUP BY ALL) AS p
    LEFT JOIN (SELECT disbursement_id, count(*) AS n, sum(amount) AS s FROM refunds GROUP BY ALL) AS r USING (disbursement_id)
    JOIN (SELECT disbursement_id, COALESCE(sum(amount) FILTER (WHERE entry_type = 'credit'), 0) AS credit,
      COALESCE(sum(amount) FILTER (WHERE entry_type = 'debit'), 0) AS debit FROM adjustments GROUP BY ALL) AS a USING (disbursement_id)`);
  await c.run(`INSERT INTO disbursements
    SELECT disbursement_id, 'rcp_' || CAST(i % 97 AS VARCHAR), 'delivered', TIMESTAMPTZ '2026-10-31 23:59:00+00' - to_seconds(i * 30),
      payouts_n, refunds_n, 1, net + CASE WHEN i % 20 = 7 THEN 1 ELSE 0 END, ${ccy('i')}, '****' || CAST(1000 + i % 97 AS VARCHAR), 'complete', NULL, 1,
      md5(disbursement_id), '${runId}', '${runId}', now(), NULL
    FROM year_totals`);
  await c.run(`INSERT INTO disbursement_files
    SELECT disbursement_id, 1, 'settlement_' || disbursement_id || '.csv', 'csv', md5(disbursement_id), 60 * lines, 'csv-settlement', 'parsed', NULL,
      lines, lines, net, '${runId}', now()
    FROM year_totals`);
  await c.run('DROP TABLE year_totals');
}
