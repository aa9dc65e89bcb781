// Plain rows the workbook writers take. They are filled by whoever reads DuckDB; the writers never
// query anything themselves. Money is integer subunits (bigint) until the moment a cell is written.

import type { FindingStatus, LatestFinding, Severity } from '../checks/index.js';

export type { FindingStatus, Severity };

/** Rows may come from a DuckDB reader page by page; writers consume them once, in order. */
export type RowSource<T> = AsyncIterable<T> | Iterable<T>;

/**
 * One finding as the workbooks show it: the checks stage's LatestFinding (one definition of the shape),
 * less the lifecycle fields no sheet prints.
 */
export type FindingRow = Omit<LatestFinding, 'lastSeen' | 'ackBy' | 'ackAt' | 'ackNote'> & {
  ackNote?: string | null; ackBy?: string | null; ackAt?: Date | null;
  /** The row of this finding's disbursement on the workbook's Disbursements sheet, when it is there (a link). */
  disbursementRow?: number | null;
};

export type DisbursementStatus = 'reconciled' | 'exceptions' | 'incomplete' | 'invalid';

export interface DisbursementRow {
  disbursementId: string;
  recipientId: string;
  deliveredAt: Date;
  currency: string;
  reported: bigint;
  computed: bigint | null;
  difference: bigint | null;
  status: DisbursementStatus;
  findings: number;
  /** The parts of computed (lines in the disbursement's own currency), when known. */
  payouts?: bigint;
  refunds?: bigint;
  credits?: bigint;
  debits?: bigint;
}

export interface RunSummary {
  runId: string;
  startedAt: Date;
  finishedAt: Date | null;
  serviceUrl: string;
  disbursementsChecked: number;
  byCheck: Array<{ checkId: string; severity: Severity; count: number }>;
  byStatus: { new: number; open: number; acknowledged: number; resolved: number };
  /** Payment details read this run for payment_cross_check, and those the service refused or never answered. */
  paymentLookups: { sampled: number; unverified: number };
  totalsByCurrency: Array<{
    currency: string;
    disbursements: number;
    reported: bigint;
    computed: bigint;
    difference: bigint;
    payouts?: bigint;
    refunds?: bigint;
    credits?: bigint;
    debits?: bigint;
  }>;
}

/**
 * One recipient × currency line of the monthly close. All four components are non-negative
 * magnitudes, so computedNet = payouts − refunds + creditAdjustments − debitAdjustments and
 * variance = disbursedTotal − computedNet. buildJournal checks both identities per line.
 */
export interface CloseLine {
  recipientId: string;
  currency: string;
  payouts: bigint;
  refunds: bigint;
  creditAdjustments: bigint;
  debitAdjustments: bigint;
  computedNet: bigint;
  disbursedTotal: bigint;
  variance: bigint;
  disbursements: number;
}

/** A journal line: exactly one of debit/credit is non-zero in what buildJournal produces. */
export interface JournalEntry {
  currency: string;
  account: string;
  description: string;
  debit: bigint;
  credit: bigint;
}

export interface CloseInput {
  /** 'YYYY-MM' */
  month: string;
  /** Re-running a close for the same month produces version 2, 3, … */
  version: number;
  generatedAt: Date;
  serviceUrl: string;
  lines: CloseLine[];
  disbursements: RowSource<DisbursementRow>;
  openFindings: RowSource<FindingRow>;
  journal: JournalEntry[];
  /** Lines in another currency than their disbursement's, each in its own currency (held in suspense). */
  suspense: SuspenseLine[];
  /** Why the close is provisional (open error findings, a variance, lines in suspense); empty when final. */
  provisional: string[];
  /** The month's days, drawn on a Month sheet (left out when absent). */
  shape?: MonthShape;
  /** The month's disbursements' bank status and the month's unmatched provider credits (left out without statements). */
  bank?: BankSheets;
}

/** A line whose currency differs from its disbursement's, as the currency_suspense view lists it. */
export interface SuspenseLine {
  disbursementId: string;
  recipientId: string;
  disbursementCurrency: string;
  kind: 'payout' | 'refund' | 'adjustment';
  entryType: string | null;
  reference: string | null;
  currency: string;
  amount: bigint;
  /** As it would count in the identity: payouts and credits +, refunds and debits −. */
  signedAmount: bigint;
}

/** A span of days with disbursed totals per currency and open findings per day (the Month sheet). */
export interface MonthShape {
  /** What the days are, e.g. "November 2026" or "31 days to 2026-11-24". */
  title: string;
  /** Each day, midnight UTC, in order. */
  days: Date[];
  currencies: Array<{ currency: string; totals: bigint[]; disbursements: number }>;
  /** Currencies left out of the charts (beyond the charted few). */
  otherCurrencies: string[];
  /** Open findings on the disbursements delivered each day. */
  findings: number[];
}

/** A disbursement and its bank credit (the bank_status view). */
export interface BankRow {
  disbursementId: string;
  deliveredAt: Date;
  currency: string;
  amount: bigint;
  account: string | null;
  status: 'settled' | 'awaiting statement' | 'unsettled';
  creditedOn: Date | null;
  statementId: string | null;
  byReference: boolean | null;
  /** How the credit settled it (#25): one credit, a batch credit of several disbursements, or short by a bank fee. */
  matchKind: 'single' | 'batch' | 'fee' | null;
  /** The credit's own amount (for a batch, the whole credit). */
  creditAmount: bigint | null;
  /** What the bank kept (match kind fee), in the disbursement's currency. */
  fee: bigint | null;
  /** How many disbursements the credit settled. */
  batchSize: number | null;
}

/** What the bank sheets show: every disbursement, the credits that settled nothing, and statement files a run refused. */
export interface BankSheets {
  disbursements: RowSource<BankRow>;
  credits: RowSource<BankCreditRow>;
  /** "file: where: why" of each statement file the run's --bank-dir could not read (or skipped). */
  refusedFiles?: string[];
}

/** A provider's credit that settled nothing (the bank_unmatched_credits view). */
export interface BankCreditRow {
  creditedOn: Date;
  currency: string;
  amount: bigint;
  reason: string;
  disbursementId: string | null;
  counterparty: string | null;
  remittance: string | null;
  account: string;
  fileName: string | null;
}
