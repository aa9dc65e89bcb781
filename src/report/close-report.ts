// The monthly close read from the store: per recipient × currency lines (monthly_summary), the month's
// disbursements, the findings open at close, and the journal built from the lines.
import path from 'node:path';
import { addMonths } from 'date-fns';
import { MONTH, inMonth } from '../month.js';
import { readMonthShape } from './month-sheet.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { ageInDays } from '../checks/index.js';
import { writeCloseWorkbook } from './close-workbook.js';
import { buildJournal } from './journal.js';
import { bankCredits, bankRows, hasBankData, reconciliationRows, withBankMatches, withDisbursementRows } from './run-report.js';
import type { BankSplit } from './journal.js';
import type { CloseLine, FindingRow, SuspenseLine } from './types.js';


function closeWorkbookPath(reportsDir: string, month: string, version: number): string {
  return path.join(reportsDir, version === 1 ? `close-${month}.xlsx` : `close-${month}-v${version}.xlsx`);
}

async function closeLines(c: DuckDBConnection, month: string): Promise<CloseLine[]> {
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
      ackBy: (r.ack_by as string | null) ?? null,
      ackAt: (r.ack_at as Date | null) ?? null,
    };
  }
}

async function suspenseLines(c: DuckDBConnection, month: string): Promise<SuspenseLine[]> {
  const rows = (await c.runAndReadAll(
    `SELECT disbursement_id, recipient_id, disbursement_currency, kind, entry_type, reference, currency, amount, signed_amount
       FROM currency_suspense WHERE month = $1 ORDER BY currency, disbursement_id, kind, line_no`,
    [month],
  )).getRowObjectsJS();
  return rows.map((r) => ({
    disbursementId: String(r.disbursement_id), recipientId: String(r.recipient_id), disbursementCurrency: String(r.disbursement_currency),
    kind: r.kind as SuspenseLine['kind'], entryType: (r.entry_type as string | null) ?? null, reference: (r.reference as string | null) ?? null,
    currency: String(r.currency), amount: BigInt(r.amount as bigint), signedAmount: BigInt((r.signed_amount ?? 0) as bigint),
  }));
}

/** Why a close cannot be final yet: open error findings of the month, a variance, lines in suspense. */
async function provisionalReasons(c: DuckDBConnection, month: string, lines: readonly CloseLine[], suspense: readonly SuspenseLine[]): Promise<string[]> {
  const errors = Number((await c.runAndReadAll(
    `SELECT count(*) FROM open_exceptions WHERE severity = 'error' AND state <> 'acknowledged'
        AND (disbursement_id IS NULL OR disbursement_id IN (SELECT disbursement_id FROM disbursements WHERE ${inMonth(month)}))`,
  )).getRows()[0]?.[0] ?? 0);
  const varianceCurrencies = new Set(lines.filter((l) => l.variance !== 0n).map((l) => l.currency));
  const reasons: string[] = [];
  if (errors > 0) reasons.push(`${errors} open error finding${errors === 1 ? '' : 's'} (Open findings)`);
  if (varianceCurrencies.size > 0) reasons.push(`a variance in ${[...varianceCurrencies].sort().join(', ')} (Reconciliation suspense in the Journal)`);
  if (suspense.length > 0) reasons.push(`${suspense.length} line${suspense.length === 1 ? '' : 's'} in another currency than ${suspense.length === 1 ? 'its' : 'their'} disbursement's held in suspense (Currency suspense)`);
  return reasons;
}

/**
 * Per currency, what the bank statements say of the month's disbursements (journal.ts, BankSplit); each
 * disbursement counted once, in the first place that applies: settled (less a bank fee), credited short, credited on
 * another account, awaiting a statement, not arrived. Undefined when no statement was ever imported.
 */
async function bankSplit(c: DuckDBConnection, month: string): Promise<Map<string, BankSplit> | undefined> {
  if (!(await hasBankData(c))) return undefined;
  const rows = (await c.runAndReadAll(
    `WITH m AS (SELECT disbursement_id, currency, amount FROM disbursements WHERE ${inMonth(month)}),
     short AS (
       SELECT u.disbursement_id, CAST(sum(u.amount) AS HUGEINT) AS credited
       FROM bank_unmatched_credits AS u JOIN m ON m.disbursement_id = u.disbursement_id AND m.currency = u.currency
       WHERE u.reason = 'amount_differs' GROUP BY u.disbursement_id),
     other AS (SELECT DISTINCT disbursement_id FROM bank_unmatched_credits WHERE reason = 'account_mismatch'),
     placed AS (
       SELECT m.currency, m.amount, sh.credited, COALESCE(s.fee, 0) AS fee,
         CASE WHEN s.bank_status = 'settled' THEN 'settled'
              WHEN sh.credited IS NOT NULL THEN 'short'
              WHEN o.disbursement_id IS NOT NULL THEN 'other'
              WHEN s.bank_status = 'awaiting statement' THEN 'awaiting'
              ELSE 'not_arrived' END AS place
       FROM m JOIN bank_status AS s ON s.disbursement_id = m.disbursement_id
       LEFT JOIN short AS sh ON sh.disbursement_id = m.disbursement_id
       LEFT JOIN other AS o ON o.disbursement_id = m.disbursement_id)
     SELECT currency,
       CAST(COALESCE(sum(amount - fee) FILTER (WHERE place = 'settled'), 0) AS VARCHAR) AS settled,
       CAST(COALESCE(sum(fee) FILTER (WHERE place = 'settled'), 0) AS VARCHAR) AS bank_charges,
       CAST(COALESCE(sum(credited) FILTER (WHERE place = 'short'), 0) AS VARCHAR) AS short_credited,
       CAST(COALESCE(sum(amount - credited) FILTER (WHERE place = 'short'), 0) AS VARCHAR) AS short_by,
       CAST(COALESCE(sum(amount) FILTER (WHERE place = 'other'), 0) AS VARCHAR) AS other_account,
       CAST(COALESCE(sum(amount) FILTER (WHERE place = 'awaiting'), 0) AS VARCHAR) AS awaiting,
       CAST(COALESCE(sum(amount) FILTER (WHERE place = 'not_arrived'), 0) AS VARCHAR) AS not_arrived
     FROM placed GROUP BY currency`)).getRowObjectsJS();
  return new Map(rows.map((r) => [String(r.currency), {
    settled: BigInt(String(r.settled)), bankCharges: BigInt(String(r.bank_charges)), shortCredited: BigInt(String(r.short_credited)), shortBy: BigInt(String(r.short_by)),
    otherAccount: BigInt(String(r.other_account)), awaiting: BigInt(String(r.awaiting)), notArrived: BigInt(String(r.not_arrived)),
  }]));
}

/** The calendar month's days (UTC), for the Month sheet. */
async function monthShape(c: DuckDBConnection, month: string) {
  const from = new Date(`${month}-01T00:00:00Z`);
  const to = addMonths(from, 1);
  return readMonthShape(c, new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(from), from, to);
}

export async function writeMonthClose(
  c: DuckDBConnection,
  opts: { month: string; version: number; reportsDir: string; serviceUrl: string; now: Date },
) {
  const lines = await closeLines(c, opts.month);
  const suspense = await suspenseLines(c, opts.month);
  const provisional = await provisionalReasons(c, opts.month, lines, suspense);
  return withBankMatches(c, async () => writeCloseWorkbook(closeWorkbookPath(opts.reportsDir, opts.month, opts.version), {
    suspense,
    provisional,
    month: opts.month,
    version: opts.version,
    generatedAt: opts.now,
    serviceUrl: opts.serviceUrl,
    lines,
    disbursements: reconciliationRows(c, inMonth(opts.month)),
    openFindings: withDisbursementRows(c, openFindingsOfMonth(c, opts.month, opts.now), inMonth(opts.month)),
    journal: buildJournal(lines, suspense, await bankSplit(c, opts.month)),
    bank: (await hasBankData(c))
      ? { disbursements: bankRows(c, inMonth(opts.month)), credits: bankCredits(c, `strftime(credited_on, '%Y-%m') = '${opts.month}'`) }
      : undefined,
    shape: await monthShape(c, opts.month),
  }));
}
