// The rows recon reads out of the store for its workbooks (src/store/read/*), in the shapes the writers
// take. Money is integer subunits (bigint) until the moment a cell is written.
import type { MoneyShape } from '../../money.js';

export type Severity = 'error' | 'warning';
export type FindingStatus = 'new' | 'open' | 'acknowledged' | 'resolved';

/** A finding of a run with its lifecycle; FindingRow below is this shape. */
export interface LatestFinding {
  key: string;
  status: FindingStatus;
  ageDays: number;
  checkId: string;
  severity: Severity;
  recipientId: string | null;
  disbursementId: string | null;
  subject: string | null;
  currency: string | null;
  expected: bigint | null;
  actual: bigint | null;
  difference: bigint | null;
  detail: string;
  firstSeen: Date;
  lastSeen: Date;
  ackNote: string | null;
  ackBy: string | null;
  ackAt: Date | null;
  /** Entries in the finding's acknowledgement history (acknowledgements and withdrawals). */
  ackEntries: number;
  /**
   * Money at stake in the finding's own currency: its cause's money, counted once, on the cause's root
   * (finding_groups.sql cause_stake); null on a repeat (its money is the root's) and without money.
   */
  stake: bigint | null;
  /** The same in the reporting currency of the user's rates (--rates); null without a rate. */
  stakeConverted: bigint | null;
  /** The root finding of its cause (finding_groups.sql): itself, or the finding its repeat folds under. */
  rootKey: string;
  isRoot: boolean;
  /** How many findings the cause has (1: no repeats). */
  groupSize: number;
  /** Who owns it: assigned (recon assign), else the configured default owners; null: nobody. */
  owner?: string | null;
  /** 'assigned', or the rule that gave the owner ('check:<id>', 'currency:<CCY>', '*'). */
  ownerSource?: string | null;
  /** YYYY-MM-DD, and whether that day is past on the workbook's clock. */
  dueDate?: string | null;
  overdue?: boolean;
  /** The operating-system user and host that acknowledged it, and who approved that (four eyes). */
  ackOsUser?: string | null;
  ackHost?: string | null;
  ackApprovedBy?: string | null;
  /** Who acknowledged it above the four-eyes threshold, while it waits for a second person's approval. */
  awaitingApprovalOf?: string | null;
}

/** What a finding carries beyond its check's columns: money at stake and its cause's grouping. */
type GroupFields = 'stake' | 'stakeConverted' | 'rootKey' | 'isRoot' | 'groupSize';

/**
 * One finding as the workbooks show it: a check run's LatestFinding (findings.ts) (one definition of the shape),
 * less the lifecycle fields no sheet prints.
 */
export type FindingRow = Omit<LatestFinding, 'lastSeen' | 'ackBy' | 'ackAt' | 'ackNote' | 'ackEntries' | GroupFields> &
  Partial<Pick<LatestFinding, GroupFields>> & {
    ackNote?: string | null;
    ackBy?: string | null;
    ackAt?: Date | null;
    ackEntries?: number;
    /**
     * The acknowledgement history in words, latest first: who, when, the note, withdrawals (the close's Open findings).
     */
    ackHistory?: string | null;
    /** The row of this finding's disbursement on the workbook's Disbursements sheet, when it is there (a link). */
    disbursementRow?: number | null;
  };


export type DisbursementStatus = 'reconciled' | 'exceptions' | 'incomplete' | 'invalid';

/** A disbursement as the Disbursements sheet lists it; the parts of computed (own-currency lines) when known. */
export interface DisbursementRow extends Partial<MoneyShape> {
  disbursementId: string;
  recipientId: string;
  deliveredAt: Date;
  currency: string;
  reported: bigint;
  computed: bigint | null;
  difference: bigint | null;
  status: DisbursementStatus;
  findings: number;
}

/**
 * One recipient × currency line of the monthly close. All four components are non-negative
 * magnitudes (MoneyShape), so computedNet = payouts − refunds + credits − debits and
 * variance = disbursedTotal − computedNet. buildJournal checks both identities per line.
 */
export interface CloseLine extends MoneyShape {
  recipientId: string;
  currency: string;
  computedNet: bigint;
  disbursedTotal: bigint;
  variance: bigint;
  disbursements: number;
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

/** The bank_status view's words (sql/staging/bank_status.sql), the same in every sheet and finding. */
const BANK_STATUSES = [
  'settled', 'fee deducted', 'part of a batch credit', 'short', 'over', 'credited in another currency',
  'on another account', 'credited on an unbalanced statement', 'awaiting statement', 'not arrived', 'no statements',
] as const;
type BankStatus = (typeof BANK_STATUSES)[number];

/** A disbursement and its bank credit (the bank_status view). */
export interface BankRow {
  disbursementId: string;
  deliveredAt: Date;
  currency: string;
  amount: bigint;
  account: string | null;
  /** What the statements say of it, in the one vocabulary of bank_status.sql. */
  status: BankStatus;
  /** For short and over: what the credits naming it add up to, less its amount (negative: short). */
  bankDifference: bigint | null;
  creditedOn: Date | null;
  statementId: string | null;
  byReference: boolean | null;
  /** How the credit settled it: one credit, a batch credit of several disbursements, or short by a bank fee. */
  matchKind: 'single' | 'batch' | 'fee' | null;
  /** The credit's own amount (for a batch, the whole credit). */
  creditAmount: bigint | null;
  /** What the bank kept (match kind fee), in the disbursement's currency. */
  fee: bigint | null;
  /** How many disbursements the credit settled. */
  batchSize: number | null;
  /** For awaiting statement: the first day of its window no statement of its account covers. */
  uncoveredOn?: Date | null;
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
