// The monthly close read from the store: per recipient × currency lines (monthly_summary), the month's
// disbursements, the findings open at close, and the journal built from the lines.
import path from 'node:path';
import { addMonths, formatISO } from 'date-fns';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ageInDays } from '../checks/index.js';
import { writeCloseWorkbook } from './close-workbook.js';
import { buildJournal } from './journal.js';
import { reconciliationRows } from './run-report.js';
import type { CloseLine, FindingRow } from './types.js';

export const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function closeWorkbookPath(reportsDir: string, month: string, version: number): string {
  return path.join(reportsDir, version === 1 ? `close-${month}.xlsx` : `close-${month}-v${version}.xlsx`);
}

/** SQL predicate: the disbursement's delivered_at falls in `month` (UTC). */
export function inMonth(month: string): string {
  if (!MONTH.test(month)) throw new Error(`month must be YYYY-MM, got ${month}`);
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = formatISO(addMonths(new Date(y, m - 1, 1), 1), { representation: 'date' }).slice(0, 7);
  return `delivered_at >= TIMESTAMPTZ '${month}-01 00:00:00+00' AND delivered_at < TIMESTAMPTZ '${next}-01 00:00:00+00'`;
}

export async function closeLines(c: DuckDBConnection, month: string): Promise<CloseLine[]> {
  const rows = (await c.runAndReadAll(
    `SELECT recipient_id, currency, payouts, refunds, credit_adjustments, debit_adjustments, computed_net, disbursed_total,
            variance, disbursements FROM monthly_summary WHERE month = $1 ORDER BY currency, recipient_id`,
    [month],
  )).getRowObjectsJS();
  const big = (v: unknown) => BigInt((v ?? 0) as bigint);
  return rows.map((r) => ({
    recipientId: String(r.recipient_id),
    currency: String(r.currency),
    payouts: big(r.payouts),
    refunds: big(r.refunds),
    creditAdjustments: big(r.credit_adjustments),
    debitAdjustments: big(r.debit_adjustments),
    computedNet: big(r.computed_net),
    disbursedTotal: big(r.disbursed_total),
    variance: big(r.variance),
    disbursements: Number(r.disbursements),
  }));
}

async function* openFindingsOfMonth(c: DuckDBConnection, month: string, now: Date): AsyncGenerator<FindingRow> {
  const rows = (await c.runAndReadAll(
    `SELECT o.* FROM open_exceptions o
      WHERE o.disbursement_id IS NULL
         OR o.disbursement_id IN (SELECT disbursement_id FROM disbursements WHERE ${inMonth(month)})
      ORDER BY o.severity, o.check_id, o.disbursement_id, o.subject`,
  )).getRowObjectsJS();
  for (const r of rows) {
    yield {
      key: String(r.finding_key), status: r.status as FindingRow['status'], ageDays: ageInDays(r.first_seen as Date, now),
      checkId: String(r.check_id), severity: r.severity as FindingRow['severity'],
      recipientId: (r.recipient_id as string | null) ?? null, disbursementId: (r.disbursement_id as string | null) ?? null,
      subject: (r.subject as string | null) ?? null, currency: (r.currency as string | null) ?? null,
      expected: (r.expected as bigint | null) ?? null, actual: (r.actual as bigint | null) ?? null,
      difference: (r.difference as bigint | null) ?? null, detail: String(r.detail), firstSeen: r.first_seen as Date,
      ackNote: (r.ack_note as string | null) ?? null,
    };
  }
}

export async function writeMonthClose(
  c: DuckDBConnection,
  opts: { month: string; version: number; reportsDir: string; serviceUrl: string; now: Date },
) {
  const lines = await closeLines(c, opts.month);
  return writeCloseWorkbook(closeWorkbookPath(opts.reportsDir, opts.month, opts.version), {
    month: opts.month,
    version: opts.version,
    generatedAt: opts.now,
    serviceUrl: opts.serviceUrl,
    lines,
    disbursements: reconciliationRows(c, inMonth(opts.month)),
    openFindings: openFindingsOfMonth(c, opts.month, opts.now),
    journal: buildJournal(lines),
  });
}
