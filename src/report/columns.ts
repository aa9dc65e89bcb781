// Column layouts shared by the daily exception workbook and the monthly close, so a finding or a
// disbursement reads the same in both.
import {
  DATE_FORMAT, LINK, setAmount, setCount, setDate, setDisbursementStatus, setSeverity, setStatus, setText,
  type CellTarget,
} from './cells.js';
import type { ColumnSpec } from './table-sheet.js';
import { linkInside } from './xlsx-parts.js';
import type { DisbursementRow, FindingRow } from './types.js';
import type { MoneyShape } from '../money.js';

/** The sheet both workbooks list their disbursements on; findings link to it. */
export const DISBURSEMENTS_SHEET = 'Disbursements';

/**
 * The columns up to Detail are what a person acts on and what is printed (landscape, at about 74 % on Letter); the
 * rest (recipient, key, dates, acknowledgement) are on screen only.
 */
/**
 * The finding columns; with the user's rates an "At stake (<reporting currency>)" column follows the
 * money at stake in the finding's own currency.
 */
export function findingColumns(reporting: string | null, controls = false): ReadonlyArray<ColumnSpec<FindingRow>> {
  // Printed (landscape, one page wide, ≥ 70 %: test/unit/report/print.test.ts): Status … Difference, the
  // money at stake in its own currency and Detail; the converted stake and the repeats are on screen only.
  return [
    ...BASE_FINDING_COLUMNS.slice(0, 10),
    { header: 'At stake', numeric: true, width: 14, write: (c, f) => setAmount(c, f.stake ?? null, f.currency) },
    BASE_FINDING_COLUMNS[10]!,
    ...(reporting === null ? [] : [{ header: `At stake (${reporting})`, numeric: true, width: 14, print: false,
      write: (c: CellTarget, f: FindingRow) => setAmount(c, f.stakeConverted ?? null, reporting) }]),
    { header: 'Repeats', width: 14, wrap: true, print: false, write: (c, f) => setText(c, repeatsText(f)) },
    ...BASE_FINDING_COLUMNS.slice(11),
    ...(controls ? CONTROL_COLUMNS : []),
  ];
}

/**
 * Who owns a finding and by when, who acknowledged it from which account, and four eyes (the exception
 * workbook; on screen only: the printed columns keep their scale).
 */
const CONTROL_COLUMNS: ReadonlyArray<ColumnSpec<FindingRow>> = [
  { header: 'Owner', width: 16, print: false, write: (c, f) => setText(c, f.owner ?? null) },
  { header: 'Owner from', width: 16, print: false,
    write: (c, f) => setText(c, !f.owner ? null : f.ownerSource === 'assigned' ? 'recon assign'
      : `rule ${f.ownerSource ?? ''}`) },
  { header: 'Due', width: 11, print: false, write: (c, f) => setText(c, f.dueDate ?? null) },
  { header: 'Overdue', width: 9, print: false,
    write: (c, f) => setText(c, f.dueDate && f.status !== 'resolved' ? (f.overdue ? 'overdue' : 'no') : null) },
  { header: 'Acknowledged from', width: 22, print: false,
    write: (c, f) => setText(c, f.ackBy && (f.ackOsUser || f.ackHost) ? `${f.ackOsUser ?? '?'}@${f.ackHost ?? '?'}`
      : null) },
  { header: 'Approval', width: 30, wrap: true, print: false, write: (c, f) => setText(c, approvalText(f)) },
];

/** Four eyes in words: waiting for a second person, or who approved the acknowledgement in force. */
function approvalText(f: Pick<FindingRow, 'awaitingApprovalOf' | 'ackApprovedBy'>): string | null {
  if (f.awaitingApprovalOf) {
    return `acknowledged by ${f.awaitingApprovalOf}, waiting for a second person's approval (recon ack KEY --approve)`;
  }
  return f.ackApprovedBy ? `approved by ${f.ackApprovedBy}` : null;
}

/**
 * A cause's root says how many more findings report its money; a repeat (just below its root) says its money
 * is the root's, counted there once (finding_groups.sql).
 */
function repeatsText(f: Pick<FindingRow, 'isRoot' | 'groupSize'>): string | null {
  const n = f.groupSize ?? 1;
  if (n <= 1) return null;
  if (f.isRoot === false) return 'same cause as the line above';
  return `also reported ${n - 1} more time${n - 1 === 1 ? '' : 's'} (below)`;
}

const BASE_FINDING_COLUMNS: ReadonlyArray<ColumnSpec<FindingRow>> = [
  { header: 'Status', width: 12, write: (c, f) => setStatus(c, f.status) },
  { header: 'Age (days)', numeric: true, width: 10, write: (c, f) => setCount(c, f.ageDays) },
  { header: 'Check', width: 20, write: (c, f) => setText(c, f.checkId) },
  { header: 'Severity', width: 10, write: (c, f) => setSeverity(c, f.severity) },
  { header: 'Disbursement', width: 16, write: writeDisbursementLink },
  { header: 'Subject', width: 16, wrap: true, write: (c, f) => setText(c, f.subject) },
  { header: 'Currency', width: 9, write: (c, f) => setText(c, f.currency) },
  { header: 'Expected', numeric: true, width: 14, write: (c, f) => setAmount(c, f.expected, f.currency) },
  { header: 'Actual', numeric: true, width: 14, write: (c, f) => setAmount(c, f.actual, f.currency) },
  { header: 'Difference', numeric: true, width: 14, write: (c, f) => setAmount(c, f.difference, f.currency) },
  { header: 'Detail', width: 34, wrap: true, write: (c, f) => setText(c, splitReceived(f.detail).detail) },
  {
    header: 'Received',
    width: 40,
    wrap: true,
    print: false,
    write: (c, f) => setText(c, splitReceived(f.detail).received),
  },
  { header: 'Recipient', width: 18, print: false, write: (c, f) => setText(c, f.recipientId) },
  { header: 'Key', width: 36, print: false, write: (c, f) => setText(c, f.key) },
  { header: 'First seen', width: 12, print: false, write: (c, f) => setDate(c, f.firstSeen, DATE_FORMAT) },
  { header: 'Acknowledged by', width: 16, print: false, write: (c, f) => setText(c, f.ackBy) },
  { header: 'Acknowledged at', width: 17, print: false, write: (c, f) => (f.ackAt ? setDate(c, f.ackAt) : undefined) },
  { header: 'Note', width: 30, wrap: true, print: false, write: (c, f) => setText(c, f.ackNote) },
  // the history behind the current acknowledgement (SELECT * FROM acknowledgements WHERE finding_key = …)
  {
    header: 'Ack history',
    numeric: true,
    width: 9,
    print: false,
    write: (c, f) => (f.ackEntries ? setCount(c, f.ackEntries) : undefined),
  },
];

/** What invalid_record appends to its detail: the payload as received (sql/checks/invalid_record.sql). */
const RECEIVED = ' — received: ';

/** A detail in plain words, and the raw payload it quotes (if any) for a column of its own. */
function splitReceived(detail: string): { detail: string; received: string | null } {
  const at = detail.indexOf(RECEIVED);
  return at < 0
    ? { detail, received: null }
    : { detail: detail.slice(0, at), received: detail.slice(at + RECEIVED.length) };
}

/** The disbursement id, a link to its row on the Disbursements sheet when that row is known. */
function writeDisbursementLink(cell: CellTarget, finding: FindingRow): void {
  setText(cell, finding.disbursementId);
  if (
    finding.disbursementId &&
    finding.disbursementRow &&
    linkInside(cell, DISBURSEMENTS_SHEET, `A${finding.disbursementRow}`)
  )
    cell.font = LINK;
}

const part = (value: bigint | undefined) => (value === undefined ? null : value);

/** A currency's sums on the Disbursements sheet's totals rows (never across currencies). */
export interface DisbursementTotals extends MoneyShape {
  currency: string;
  reported: bigint;
  computed: bigint;
  difference: bigint;
}

/** A Disbursements column; a money column names the sum of its currency it shows on the totals rows. */
export interface DisbursementColumn extends ColumnSpec<DisbursementRow> {
  total?: Exclude<keyof DisbursementTotals, 'currency'>;
}

/**
 * Reported against computed, and what computed is made of; a row that needs a person has its status
 * coloured. The recipient is on screen only (printed, the other twelve columns keep a readable scale).
 */
export const DISBURSEMENT_COLUMNS: readonly DisbursementColumn[] = [
  { header: 'Disbursement', width: 20, write: (c, d) => setText(c, d.disbursementId) },
  { header: 'Delivered at (UTC)', width: 17, write: (c, d) => setDate(c, d.deliveredAt) },
  { header: 'Currency', width: 9, write: (c, d) => setText(c, d.currency) },
  {
    header: 'Reported total', numeric: true, width: 15, total: 'reported',
    write: (c, d) => setAmount(c, d.reported, d.currency),
  },
  {
    header: 'Computed total', numeric: true, width: 15, total: 'computed',
    write: (c, d) => setAmount(c, d.computed, d.currency),
  },
  {
    header: 'Difference', numeric: true, width: 14, total: 'difference',
    write: (c, d) => setAmount(c, d.difference, d.currency),
  },
  { header: 'Status', width: 12, write: (c, d) => setDisbursementStatus(c, d.status) },
  { header: 'Findings', numeric: true, width: 9, write: (c, d) => setCount(c, d.findings) },
  {
    header: 'Payouts', numeric: true, width: 15, total: 'payouts',
    write: (c, d) => setAmount(c, part(d.payouts), d.currency),
  },
  {
    header: 'Refunds', numeric: true, width: 14, total: 'refunds',
    write: (c, d) => setAmount(c, part(d.refunds), d.currency),
  },
  {
    header: 'Credit adjustments', numeric: true, width: 14, total: 'credits',
    write: (c, d) => setAmount(c, part(d.credits), d.currency),
  },
  {
    header: 'Debit adjustments', numeric: true, width: 14, total: 'debits',
    write: (c, d) => setAmount(c, part(d.debits), d.currency),
  },
  { header: 'Recipient', width: 18, print: false, write: (c, d) => setText(c, d.recipientId) },
];

/** The finding columns without rates (the exceptions workbook without --rates). */
export const FINDING_COLUMNS: ReadonlyArray<ColumnSpec<FindingRow>> = findingColumns(null);

/** The close's Open findings: grouped by cause like the exceptions, each with its acknowledgement history in words. */
export const CLOSE_FINDING_COLUMNS: ReadonlyArray<ColumnSpec<FindingRow>> = [
  ...FINDING_COLUMNS,
  {
    header: 'Acknowledgement history',
    width: 60,
    wrap: true,
    print: false,
    write: (c, f) => setText(c, f.ackHistory ?? null),
  },
];
